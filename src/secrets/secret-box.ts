import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { derivedKey, type MacPurpose } from './secret-keys.js';

/** Sealed with the key derived for sealing; `v1` values were sealed with the secret key itself. */
const VERSION = 'v2';
const LEGACY_VERSION = 'v1';

/**
 * The service's secret key at work, one key per purpose: AES-256-GCM sealing
 * (`v2.<iv>.<tag>.<ciphertext>` in base64url; tampering makes decryption fail), a MAC key for
 * each thing the service signs and later accepts back, and the lookup digests.
 */
export class SecretBox {
  private readonly sealKey: Buffer;
  private readonly macKeys = new Map<MacPurpose, Buffer>();

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
    this.sealKey = derivedKey(key, 'seal');
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** Opens what `seal` made, and what it made before sealing had its own key (`v1`). */
  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    const key =
      version === VERSION ? this.sealKey : version === LEGACY_VERSION ? this.key : undefined;
    if (!key || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(body, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }

  /**
   * Keyed digest that stored records are found by: high-entropy one-time values (recovery
   * codes, reset and invite tokens) and emails. Stored digests must stay stable, so it keeps the
   * secret key itself; no signature the service accepts back uses that key, so a digest someone
   * got to see vouches for nothing. Never for values callers choose and then read back.
   */
  digest(value: string): string {
    return createHmac('sha256', this.key).update(value, 'utf8').digest('hex');
  }

  /** HMAC-SHA256 (hex) of `message` under the key derived for `purpose` alone. */
  mac(purpose: MacPurpose, message: string): string {
    let key = this.macKeys.get(purpose);
    if (!key) {
      key = derivedKey(this.key, purpose);
      this.macKeys.set(purpose, key);
    }
    return createHmac('sha256', key).update(message, 'utf8').digest('hex');
  }
}

/** Whether `value` has the form `seal` gives (`v<n>.<iv>.<tag>.<ciphertext>`): opaque without the key. */
export function isSealedSecret(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    /^v[0-9]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(value)
  );
}
