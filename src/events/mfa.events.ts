import { defineEvent } from '../eventstore/define-event.js';

/** Stream `mfa-<userId>`. Secrets appear only as AES-GCM ciphertext, codes only as HMAC digests. */
export const MfaEnrollmentStarted = defineEvent<{ userId: string; secretCiphertext: string }>(
  'MfaEnrollmentStarted',
  1,
);
export const MfaEnrolled = defineEvent<{ userId: string; recoveryCodeDigests: string[] }>(
  'MfaEnrolled',
  1,
);
export const TotpCodeAccepted = defineEvent<{
  userId: string;
  timeStep: number;
  purpose: 'enrolment' | 'login' | 'rotate' | 'disable';
}>('TotpCodeAccepted', 1);
export const RecoveryCodeUsed = defineEvent<{ userId: string; codeDigest: string }>(
  'RecoveryCodeUsed',
  1,
);
export const RecoveryCodesRotated = defineEvent<{ userId: string; recoveryCodeDigests: string[] }>(
  'RecoveryCodesRotated',
  1,
);
export const MfaDisabled = defineEvent<{ userId: string }>('MfaDisabled', 1);

export const mfaStream = (userId: string) => `mfa-${userId}`;
