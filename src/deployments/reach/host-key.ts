import { createHash } from 'node:crypto';

/** OpenSSH's fingerprint of a host key: `SHA256:` + unpadded base64 of its SHA-256. */
export function fingerprintOf(hostKey: Buffer): string {
  return `SHA256:${createHash('sha256').update(hostKey).digest('base64').replace(/=+$/, '')}`;
}

/** The algorithm a host key blob names first (`ssh-ed25519`, `ecdsa-sha2-nistp256`, ...). */
export function hostKeyType(hostKey: Buffer): string | null {
  if (hostKey.length < 4) return null;
  const length = hostKey.readUInt32BE(0);
  if (length < 1 || length > 64 || hostKey.length < 4 + length) return null;
  const name = hostKey.subarray(4, 4 + length).toString('latin1');
  return /^[a-z0-9@.+-]+$/.test(name) ? name : null;
}
