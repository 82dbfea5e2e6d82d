/** A personal value as events store it: AES-256-GCM under its subject's own key. */
export interface SealedPersonal {
  pii: 1;
  subject: string;
  /** base64url of iv (12) | tag (16) | ciphertext. */
  ct: string;
  [key: string]: unknown;
}

export const ERASED = '[erased]';

/** A personal value in a document: plaintext (events from before sealing) or sealed. */
export type PersonalValue = string | SealedPersonal;

export function isSealedPersonal(value: unknown): value is SealedPersonal {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Partial<SealedPersonal>).pii === 1 &&
    typeof (value as Partial<SealedPersonal>).subject === 'string' &&
    typeof (value as Partial<SealedPersonal>).ct === 'string'
  );
}
