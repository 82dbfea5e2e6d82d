import type { UserCredentialDoc } from '../../projections/user-credentials.projection.js';
import type { PersonalData } from '../privacy/personal-data.js';
import type { ReadStore } from '../readstore/read-store.port.js';

/** The account an email signs in to: by keyed digest, or by plaintext for v1 sign-ups. */
export async function credentialByEmail(
  reads: ReadStore,
  personal: PersonalData,
  email: string,
): Promise<UserCredentialDoc | null> {
  const credentials = reads.collection<UserCredentialDoc>('user_credentials');
  const digest = personal.lookupDigest('email', email);
  const found = (await credentials.find({ emailDigest: digest }, { limit: 1 })).items[0];
  return found ?? (await credentials.find({ email }, { limit: 1 })).items[0] ?? null;
}
