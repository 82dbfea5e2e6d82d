import { isDeepStrictEqual } from 'node:util';
import { conflict, notFound } from '../../common/app-error.js';
import type { Decider, EventLike } from '../../storage/decider.js';
import {
  S3TargetConfigured,
  S3TargetRemoved,
  type S3TargetSettings,
} from '../../events/backup-schedules.events.js';

export interface S3TargetState {
  settings: S3TargetSettings | null;
}

export type S3TargetCommand =
  | {
      kind: 'configure';
      settings: Omit<S3TargetSettings, 'sealedSecretAccessKey'>;
      /** A newly sealed secret, or null to keep the configured one. */
      sealedSecretAccessKey: string | null;
    }
  | { kind: 'remove'; targetId: string };

/**
 * Stream `s3-target-<id>`: one bucket, configured whole each time; a new target needs its
 * secret, a configured one keeps it when none is sent; configuring what is configured records
 * nothing.
 */
export const s3TargetDecider: Decider<S3TargetState, S3TargetCommand> = {
  initialState: () => ({ settings: null }),

  evolve(state, event: EventLike) {
    if (event.type === S3TargetConfigured.type)
      return { settings: S3TargetConfigured.dataOf(event) };
    if (event.type === S3TargetRemoved.type) return { settings: null };
    return state;
  },

  decide(command, state) {
    if (command.kind === 'remove') {
      if (!state.settings) throw notFound('No such S3 target');
      return [S3TargetRemoved({ targetId: command.targetId })];
    }
    const sealed = command.sealedSecretAccessKey ?? state.settings?.sealedSecretAccessKey;
    if (!sealed) {
      throw conflict('A new S3 target needs its secret access key', { field: 'secretAccessKey' });
    }
    const next = { ...command.settings, sealedSecretAccessKey: sealed };
    if (state.settings && isDeepStrictEqual(state.settings, next)) return [];
    return [S3TargetConfigured(next)];
  },
};
