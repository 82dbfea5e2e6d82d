import { isDeepStrictEqual } from 'node:util';
import { conflict, notFound } from '../../common/app-error.js';
import type { Decider, EventLike } from '../../storage/decider.js';
import type { ApprovalRule } from '../../events/deployments.events.js';
import { assertNotHeldBack, type RuleSubject } from '../approval-rules.js';
import {
  ScheduledJobDefined,
  ScheduledJobRemoved,
  type ScheduledJobSettings,
} from '../../events/jobs.events.js';

export interface ScheduledJobState {
  settings: ScheduledJobSettings | null;
  removed: boolean;
}

export type ScheduledJobCommand =
  | {
      kind: 'define';
      settings: ScheduledJobSettings;
      /** Who asks, and the service's approval rule as its own stream says it now. */
      by: RuleSubject;
      rule: ApprovalRule;
    }
  | { kind: 'remove'; jobId: string };

/**
 * Stream `scheduled-job-<id>`: one job of one service, defined whole each time. A job stays with
 * the service it was made for; defining what is defined records nothing; a removed job is gone
 * for good (its runs stay on record). What a job runs (its command, in which compose service) is
 * chosen only by a caller the service's approval rule does not hold back: it runs with no
 * approval; its schedule and limits are anyone's to change.
 */
export const scheduledJobDecider: Decider<ScheduledJobState, ScheduledJobCommand> = {
  initialState: () => ({ settings: null, removed: false }),

  evolve(state, event: EventLike) {
    if (event.type === ScheduledJobDefined.type) {
      return { settings: ScheduledJobDefined.dataOf(event), removed: false };
    }
    if (event.type === ScheduledJobRemoved.type) return { settings: null, removed: true };
    return state;
  },

  decide(command, state) {
    if (state.removed) throw notFound('No such scheduled job');
    if (command.kind === 'remove') {
      if (!state.settings) throw notFound('No such scheduled job');
      return [ScheduledJobRemoved({ jobId: command.jobId, serviceId: state.settings.serviceId })];
    }
    const current = state.settings;
    if (current && current.serviceId !== command.settings.serviceId) {
      throw conflict('A scheduled job stays with its service', { field: 'serviceId' });
    }
    const { command: argv, composeService } = command.settings;
    if (
      !current ||
      !isDeepStrictEqual(current.command, argv) ||
      current.composeService !== composeService
    )
      assertNotHeldBack(command.rule, command.by, 'choose what a scheduled job runs', 'command');
    if (current && isDeepStrictEqual(current, command.settings)) return [];
    return [ScheduledJobDefined(command.settings)];
  },
};
