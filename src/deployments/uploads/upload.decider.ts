import { conflict, notFound } from '../../common/app-error.js';
import type { Decider, EventLike } from '../../storage/decider.js';
import { UploadOpened, UploadReceived } from '../../events/uploads.events.js';

export interface UploadState {
  opened: { principalId: string; maxBytes: number; expiresAt: string } | null;
  received: { sha256: string; bytes: number; entries: number } | null;
}

export type UploadCommand =
  | { kind: 'open'; uploadId: string; principalId: string; maxBytes: number; expiresAt: string }
  | {
      kind: 'receive';
      uploadId: string;
      principalId: string;
      now: number;
      sha256: string;
      bytes: number;
      entries: number;
    };

/**
 * Why `principalId` may not fill (or build from) this upload at `now`, or null. Someone else's
 * upload is unknown to the caller (404), so upload ids cannot be probed; an expired one is gone.
 */
export function uploadRefusal(
  state: UploadState,
  principalId: string,
  now: number,
  purpose: 'fill' | 'use',
): Error | null {
  if (!state.opened || state.opened.principalId !== principalId) return notFound('No such upload');
  if (Date.parse(state.opened.expiresAt) <= now) return notFound('The upload has expired');
  if (purpose === 'fill' && state.received) return conflict('The upload was already received');
  if (purpose === 'use' && !state.received) return conflict('Nothing was uploaded yet');
  return null;
}

/** One upload slot: opened for a principal, filled once by that principal before it expires. */
export const uploadDecider: Decider<UploadState, UploadCommand> = {
  initialState: () => ({ opened: null, received: null }),

  evolve(state: UploadState, event: EventLike): UploadState {
    if (event.type === UploadOpened.type) {
      const { principalId, maxBytes, expiresAt } = UploadOpened.dataOf(event);
      return { ...state, opened: { principalId, maxBytes, expiresAt } };
    }
    if (event.type === UploadReceived.type) {
      const { sha256, bytes, entries } = UploadReceived.dataOf(event);
      return { ...state, received: { sha256, bytes, entries } };
    }
    return state;
  },

  decide(command: UploadCommand, state: UploadState) {
    if (command.kind === 'open') {
      if (state.opened) throw conflict('The upload id is taken');
      const { uploadId, principalId, maxBytes, expiresAt } = command;
      return [UploadOpened({ uploadId, principalId, maxBytes, expiresAt })];
    }
    const refused = uploadRefusal(state, command.principalId, command.now, 'fill');
    if (refused) throw refused;
    if (command.bytes > state.opened!.maxBytes) throw conflict('The upload is over its limit');
    const { uploadId, sha256, bytes, entries } = command;
    return [UploadReceived({ uploadId, sha256, bytes, entries })];
  },
};
