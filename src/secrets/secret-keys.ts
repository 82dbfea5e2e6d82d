import { hkdfSync } from 'node:crypto';

/**
 * What a key derived from the service's secret key is for. Each purpose has its own key, so an
 * output of one (a MAC someone got to see) says nothing about another's.
 */
export type KeyPurpose = 'seal' | MacPurpose;

/** The purposes whose keys sign something the service later accepts back. */
export type MacPurpose = 'mcp-plan-id' | 'login-device';

/** HKDF-SHA256 of the secret key with the purpose as its info label: 32 bytes. */
export function derivedKey(secretKey: Buffer, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), `slipway:${purpose}:v1`, 32));
}
