import { createHash } from 'node:crypto';

/** OpenSSH's fingerprint of a host key: `SHA256:` + unpadded base64 of its SHA-256. */
export function fingerprintOf(hostKey: Buffer): string {
  return `SHA256:${createHash('sha256').update(hostKey).digest('base64').replace(/=+$/, '')}`;
}
