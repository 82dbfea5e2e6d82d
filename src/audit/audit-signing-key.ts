import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Nest token of the process's AuditSigningKey. */
export const AUDIT_SIGNING_KEY = Symbol('AUDIT_SIGNING_KEY');

/**
 * The Ed25519 key that signs audit checkpoints. It is kept outside the event store
 * (`SLIPWAY_AUDIT_SIGNING_KEY`, PKCS#8 PEM, or `audit-signing.key` created 0600 in the data
 * directory), so whoever can edit the events cannot re-sign them; nor, with the mark written
 * beside it (`mark/`), cut them back to an earlier checkpoint unnoticed.
 */
export class AuditSigningKey {
  readonly publicKeyPem: string;

  private constructor(private readonly privateKey: KeyObject) {
    this.publicKeyPem = createPublicKey(privateKey)
      .export({ type: 'spki', format: 'pem' })
      .toString();
  }

  static load(dataDir: string, fromEnv: string | undefined): AuditSigningKey {
    if (fromEnv) return new AuditSigningKey(createPrivateKey(fromEnv));
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const file = join(dataDir, 'audit-signing.key');
    if (!existsSync(file)) {
      const { privateKey } = generateKeyPairSync('ed25519');
      writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), {
        mode: 0o600,
        flag: 'wx',
      });
    }
    return new AuditSigningKey(createPrivateKey(readFileSync(file)));
  }

  sign(digestHex: string): string {
    return sign(null, Buffer.from(digestHex, 'hex'), this.privateKey).toString('base64');
  }
}

/** Offline-capable: verification needs only the public key. */
export function verifySignature(
  publicKeyPem: string,
  digestHex: string,
  signature: string,
): boolean {
  try {
    return verify(
      null,
      Buffer.from(digestHex, 'hex'),
      createPublicKey(publicKeyPem),
      Buffer.from(signature, 'base64'),
    );
  } catch {
    return false;
  }
}
