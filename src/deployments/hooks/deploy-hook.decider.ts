import { conflict, notFound } from '../../common/app-error.js';
import type { PendingEvent } from '../../eventstore/define-event.js';
import type { Decider } from '../../storage/decider.js';
import { DeployHookCreated, DeployHookRevoked } from '../../events/notifications.events.js';

export interface DeployHookState {
  hookId: string | null;
  revoked: boolean;
}

export type DeployHookCommand =
  | { kind: 'create'; event: Parameters<typeof DeployHookCreated>[0] }
  | { kind: 'revoke'; hookId: string };

/** One inbound hook on its stream `deploy-hook-<id>`: created once, revoked once for good. */
export const deployHookDecider: Decider<DeployHookState, DeployHookCommand> = {
  initialState: () => ({ hookId: null, revoked: false }),
  evolve(state, event) {
    if (event.type === DeployHookCreated.type)
      return { hookId: DeployHookCreated.dataOf(event).hookId, revoked: false };
    if (event.type === DeployHookRevoked.type) return { ...state, revoked: true };
    return state;
  },
  decide(command, state): PendingEvent[] {
    if (command.kind === 'create') {
      if (state.hookId) throw conflict('This hook already exists');
      return [DeployHookCreated(command.event)];
    }
    if (state.hookId !== command.hookId) throw notFound('No such deploy hook');
    // Revoking twice changes nothing (recorded as a command without effect).
    return state.revoked ? [] : [DeployHookRevoked({ hookId: command.hookId })];
  },
};
