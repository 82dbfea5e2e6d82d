import { AppError, conflict, notFound } from '../../common/app-error.js';
import type { PendingEvent } from '../../eventstore/define-event.js';
import type { Decider } from '../../storage/decider.js';
import {
  DeployHookCreated,
  DeployHookDeliveryAccepted,
  DeployHookRevoked,
  type DeployHookDeliveryData,
} from '../../events/notifications.events.js';

/** How many distinct images a hook remembers having deployed (the state stays this small). */
export const REMEMBERED_IMAGES = 100;
/** How many of its last accepted delivery ids a hook remembers (a sender's retries are recent). */
export const REMEMBERED_DELIVERY_IDS = 100;

export interface DeployHookState {
  hookId: string | null;
  revoked: boolean;
  /**
   * Distinct images this hook deployed, in the order it last deployed each: the current one
   * last. Only the last `REMEMBERED_IMAGES`, so folding one more delivery costs the same forever.
   */
  images: readonly string[];
  /**
   * The delivery ids of its last accepted deliveries: a sender retrying one re-signs it (a new
   * timestamp, so new signed bytes) under the same id. Not a defence against replays (the id is
   * not signed; the digest claim is that), the sender's own idempotency.
   */
  deliveryIds: readonly string[];
}

export type DeployHookCommand =
  | { kind: 'create'; event: Parameters<typeof DeployHookCreated>[0] }
  | { kind: 'revoke'; hookId: string }
  /** A signed, not replayed delivery (see the claim in receive-deploy-hook.handler.ts). */
  | { kind: 'accept'; delivery: DeployHookDeliveryData; allowRollback: boolean };

/**
 * One inbound hook on its stream `deploy-hook-<id>`: created once, revoked once for good, and
 * the deliveries it let through, in order. Decided here with the stream's expected revision, so
 * two deliveries racing see each other, and the outcome survives restarts.
 *
 * "Older image" is this hook's own history, not a version order of tags (tags need not be
 * versions: `latest`, `sha-1a2b3c`, and a captured delivery can only announce what the hook
 * already deployed): a delivery may deploy the image the hook deployed last again (a moving tag
 * pushed again) or one it never deployed, but not one it deployed before and has since moved
 * past, unless the matching rule says `allowRollback`.
 */
export const deployHookDecider: Decider<DeployHookState, DeployHookCommand> = {
  initialState: () => ({ hookId: null, revoked: false, images: [], deliveryIds: [] }),
  evolve(state, event) {
    if (event.type === DeployHookCreated.type) {
      const { hookId } = DeployHookCreated.dataOf(event);
      return { hookId, revoked: false, images: [], deliveryIds: [] };
    }
    if (event.type === DeployHookRevoked.type) return { ...state, revoked: true };
    if (event.type === DeployHookDeliveryAccepted.type) {
      const { imageRef, deliveryId } = DeployHookDeliveryAccepted.dataOf(event);
      const images = [...state.images.filter((i) => i !== imageRef), imageRef];
      return {
        ...state,
        images: images.slice(-REMEMBERED_IMAGES),
        deliveryIds: [...state.deliveryIds, deliveryId].slice(-REMEMBERED_DELIVERY_IDS),
      };
    }
    return state;
  },
  decide(command, state): PendingEvent[] {
    if (command.kind === 'create') {
      if (state.hookId) throw conflict('This hook already exists');
      return [DeployHookCreated(command.event)];
    }
    if (command.kind === 'revoke') {
      if (state.hookId !== command.hookId) throw notFound('No such deploy hook');
      // Revoking twice changes nothing (recorded as a command without effect).
      return state.revoked ? [] : [DeployHookRevoked({ hookId: command.hookId })];
    }
    const { delivery } = command;
    if (state.hookId !== delivery.hookId) throw notFound('No such deploy hook');
    if (state.revoked) throw new AppError('TOKEN_REVOKED', 'This hook was revoked');
    if (state.deliveryIds.includes(delivery.deliveryId)) {
      throw conflict('This delivery was received before (replay)', {
        reason: 'replayed',
        deliveryId: delivery.deliveryId,
      });
    }
    const at = state.images.indexOf(delivery.imageRef);
    const current = state.images[state.images.length - 1];
    if (at >= 0 && delivery.imageRef !== current && !command.allowRollback) {
      throw conflict(
        `This hook has moved past ${delivery.imageRef} (it deployed ${current} since); a rule with allowRollback permits going back`,
        { reason: 'rollback', imageRef: delivery.imageRef, currentImageRef: current },
      );
    }
    return [DeployHookDeliveryAccepted(delivery)];
  },
};
