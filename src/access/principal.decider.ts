import { conflict } from '../common/app-error.js';
import type { Decider, EventLike } from '../storage/decider.js';
import {
  AgentCreated,
  PrincipalInvalidated,
  TokensInvalidatedBefore,
} from '../events/access.events.js';

export interface PrincipalState {
  agentCreated: boolean;
  invalidated: boolean;
}

export type PrincipalCommand =
  | { kind: 'createAgent'; principalId: string; name: string; preset: string; createdBy: string }
  | { kind: 'invalidate'; principalId: string; reason: string }
  | { kind: 'invalidateTokensBefore'; principalId: string; before: string };

/** Agent creation and the invalidation facts of any principal (user or agent). */
export const principalDecider: Decider<PrincipalState, PrincipalCommand> = {
  initialState: () => ({ agentCreated: false, invalidated: false }),

  evolve(state: PrincipalState, event: EventLike): PrincipalState {
    if (event.type === AgentCreated.type) return { ...state, agentCreated: true };
    if (event.type === PrincipalInvalidated.type) return { ...state, invalidated: true };
    return state;
  },

  decide(command: PrincipalCommand, state: PrincipalState) {
    switch (command.kind) {
      case 'createAgent': {
        if (state.agentCreated) throw conflict('This agent already exists');
        const { principalId, name, preset, createdBy } = command;
        return [AgentCreated({ principalId, name, preset, createdBy })];
      }
      case 'invalidate':
        return state.invalidated
          ? []
          : [PrincipalInvalidated({ principalId: command.principalId, reason: command.reason })];
      case 'invalidateTokensBefore':
        return [
          TokensInvalidatedBefore({ principalId: command.principalId, before: command.before }),
        ];
    }
  },
};
