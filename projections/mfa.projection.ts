import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import type { Projection } from './projection.js';

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

const byUser = (e: RecordedEvent) => String(e.data.userId);
const empty = (id: string): MfaDoc => ({
  id,
  status: 'none',
  secretCiphertext: null,
  pendingSecretCiphertext: null,
  recoveryCodesRemaining: 0,
  enrolledAt: null,
});
const handler = (evolve: (doc: MfaDoc, e: RecordedEvent) => MfaDoc) => [
  {
    collection: 'mfa',
    documentId: byUser,
    evolve: (c: Doc | null, e: RecordedEvent) =>
      evolve((c as MfaDoc | null) ?? empty(byUser(e)), e),
  },
];

export const mfaProjection: Projection = {
  name: 'mfa',
  version: 1,
  collections: [{ name: 'mfa' }],
  handlers: {
    MfaEnrollmentStarted: handler((d, e) => ({
      ...d,
      status: d.status === 'enrolled' ? 'enrolled' : 'pending',
      pendingSecretCiphertext: String(e.data.secretCiphertext),
    })),
    MfaEnrolled: handler((d, e) => ({
      ...d,
      status: 'enrolled',
      secretCiphertext: d.pendingSecretCiphertext,
      pendingSecretCiphertext: null,
      recoveryCodesRemaining: (e.data.recoveryCodeDigests as string[]).length,
      enrolledAt: e.recordedAt,
    })),
    RecoveryCodeUsed: handler((d) => ({
      ...d,
      recoveryCodesRemaining: Math.max(0, d.recoveryCodesRemaining - 1),
    })),
    RecoveryCodesRotated: handler((d, e) => ({
      ...d,
      recoveryCodesRemaining: (e.data.recoveryCodeDigests as string[]).length,
    })),
    MfaDisabled: handler((d) => ({ ...empty(d.id) })),
  },
};
