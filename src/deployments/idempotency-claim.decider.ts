import { conflict } from '../common/app-error.js';
import type { Decider, EventLike } from '../storage/decider.js';
import { IdempotencyKeyClaimed } from '../events/deployments.events.js';

export interface IdempotencyClaim {
  deploymentId: string;
  inputDigest: string;
}

export interface IdempotencyClaimState {
  claim: IdempotencyClaim | null;
}

export interface ClaimCommand {
  serviceId: string;
  deploymentId: string;
  inputDigest: string;
}

/**
 * One Idempotency-Key of one service, on its own stream: the first request claims it for its
 * deployment; a repeat with the same input gets that deployment, other input is refused.
 * A short stream per key, so keys never weigh on the service's queue.
 */
export const idempotencyClaimDecider: Decider<IdempotencyClaimState, ClaimCommand> = {
  initialState: () => ({ claim: null }),

  evolve(state: IdempotencyClaimState, event: EventLike): IdempotencyClaimState {
    if (event.type !== IdempotencyKeyClaimed.type || state.claim) return state;
    const { deploymentId, inputDigest } = IdempotencyKeyClaimed.dataOf(event);
    return { claim: { deploymentId, inputDigest } };
  },

  decide(command: ClaimCommand, state: IdempotencyClaimState) {
    const previous = state.claim;
    if (!previous) return [IdempotencyKeyClaimed(command)];
    if (previous.inputDigest !== command.inputDigest) {
      throw conflict('This Idempotency-Key was used for a different request', {
        deploymentId: previous.deploymentId,
      });
    }
    return [];
  },
};
