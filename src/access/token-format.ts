import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { TOKEN_PREFIX } from './credentials.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_BYTES = 32;
const SECRET_CHARS = 43; // ceil(256 / log2(62))
const CHECKSUM_CHARS = 6; // CRC32 fits in 6 base62 digits

function base62(value: bigint, width: number): string {
  let out = '';
  let rest = value;
  while (rest > 0n) {
    out = ALPHABET[Number(rest % 62n)] + out;
    rest /= 62n;
  }
  return out.padStart(width, '0');
}

function checksum(secret: string): string {
  return base62(BigInt(crc32(`${TOKEN_PREFIX}${secret}`)), CHECKSUM_CHARS);
}

/**
 * `slw_` + 256 random bits in base62 + a CRC32 checksum, so a secret scanner can tell a real
 * Slipway token from a look-alike without asking the server.
 */
export function generateToken(): string {
  const secret = base62(BigInt(`0x${randomBytes(SECRET_BYTES).toString('hex')}`), SECRET_CHARS);
  return `${TOKEN_PREFIX}${secret}${checksum(secret)}`;
}

export function hasValidChecksum(token: string): boolean {
  const body = token.slice(TOKEN_PREFIX.length);
  if (!token.startsWith(TOKEN_PREFIX) || body.length !== SECRET_CHARS + CHECKSUM_CHARS)
    return false;
  if (![...body].every((c) => ALPHABET.includes(c))) return false;
  return checksum(body.slice(0, SECRET_CHARS)) === body.slice(SECRET_CHARS);
}

/** Only this digest of a token is stored; the value itself is shown once. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
