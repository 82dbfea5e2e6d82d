import { isDeepStrictEqual } from 'node:util';
import { conflict, notFound } from '../../common/app-error.js';
import {
  AlertRuleRemoved,
  AlertRuleSet,
  type AlertRuleSettings,
} from '../../events/alerts.events.js';
import type { Decider, EventLike } from '../../storage/decider.js';

export interface AlertRuleState {
  settings: AlertRuleSettings | null;
  removed: boolean;
}

export type AlertRuleCommand =
  { kind: 'set'; settings: AlertRuleSettings } | { kind: 'remove'; ruleId: string };

/**
 * Stream `alert-rule-<id>`: one threshold rule, set whole each time. It stays with the server or
 * service it watches (so the project it was judged in); setting what is set records nothing; a
 * removed rule is gone for good.
 */
export const alertRuleDecider: Decider<AlertRuleState, AlertRuleCommand> = {
  initialState: () => ({ settings: null, removed: false }),

  evolve(state, event: EventLike) {
    if (event.type === AlertRuleSet.type) {
      return { settings: AlertRuleSet.dataOf(event), removed: false };
    }
    if (event.type === AlertRuleRemoved.type) return { settings: null, removed: true };
    return state;
  },

  decide(command, state) {
    if (state.removed) throw notFound('No such alert rule');
    const current = state.settings;
    if (command.kind === 'remove') {
      if (!current) throw notFound('No such alert rule');
      return [
        AlertRuleRemoved({
          ruleId: command.ruleId,
          serverId: current.serverId,
          serviceId: current.serviceId,
        }),
      ];
    }
    const next = command.settings;
    if (current && (current.serverId !== next.serverId || current.serviceId !== next.serviceId)) {
      throw conflict('An alert rule stays with what it watches', { field: 'serviceId' });
    }
    if (current && isDeepStrictEqual(current, next)) return [];
    return [AlertRuleSet(next)];
  },
};
