import {
  MfaDisabled,
  MfaEnrolled,
  MfaEnrollmentStarted,
  RecoveryCodeUsed,
  RecoveryCodesRotated,
} from '../src/events/mfa.events.js';
import type { EventDefinition } from '../src/eventstore/define-event.js';
import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/**
 * `mfa`: `{id: userId, status: "none"|"pending"|"enrolled", secretCiphertext (AES-GCM),
 * recoveryCodesRemaining, enrolledAt}`. The recovery-code digests stay in the event stream,
 * where the decider checks them; this document only says what login and status need.
 */
export interface MfaDoc extends Doc {
  status: 'none' | 'pending' | 'enrolled';
  secretCiphertext: string | null;
  pendingSecretCiphertext: string | null;
  recoveryCodesRemaining: number;
  enrolledAt: string | null;
}

const byUser = (e: RecordedEvent<{ userId: string }>) => e.data.userId;
const empty = (id: string): MfaDoc => ({
  id,
  status: 'none',
  secretCiphertext: null,
  pendingSecretCiphertext: null,
  recoveryCodesRemaining: 0,
  enrolledAt: null,
});

/** A change to the user's MFA document, which starts empty. */
function handler<D extends { userId: string }>(
  definition: EventDefinition<D>,
  evolve: (doc: MfaDoc, e: RecordedEvent<D>) => MfaDoc,
) {
  return on<D, MfaDoc>(definition, {
    collection: 'mfa',
    documentId: byUser,
    evolve: (c, e) => evolve(c ?? empty(byUser(e)), e),
  });
}

export const mfaProjection: Projection = {
  name: 'mfa',
  version: 1,
  collections: [{ name: 'mfa' }],
  handlers: handlersOf(
    handler(MfaEnrollmentStarted, (d, e) => ({
      ...d,
      status: d.status === 'enrolled' ? 'enrolled' : 'pending',
      pendingSecretCiphertext: e.data.secretCiphertext,
    })),
    handler(MfaEnrolled, (d, e) => ({
      ...d,
      status: 'enrolled',
      secretCiphertext: d.pendingSecretCiphertext,
      pendingSecretCiphertext: null,
      recoveryCodesRemaining: e.data.recoveryCodeDigests.length,
      enrolledAt: e.recordedAt,
    })),
    handler(RecoveryCodeUsed, (d) => ({
      ...d,
      recoveryCodesRemaining: Math.max(0, d.recoveryCodesRemaining - 1),
    })),
    handler(RecoveryCodesRotated, (d, e) => ({
      ...d,
      recoveryCodesRemaining: e.data.recoveryCodeDigests.length,
    })),
    handler(MfaDisabled, (d) => ({ ...empty(d.id) })),
  ),
};
