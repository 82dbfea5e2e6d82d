import { describe, expect, it } from '@jest/globals';
import { generateToken, hasValidChecksum, tokenDigest } from './token-format.js';

describe('token format', () => {
  it('is slw_ + 43 base62 characters + a 6-character checksum, different every time', () => {
    const tokens = new Set(Array.from({ length: 200 }, generateToken));
    expect(tokens.size).toBe(200);
    for (const token of tokens) {
      expect(token).toMatch(/^slw_[0-9A-Za-z]{49}$/);
      expect(hasValidChecksum(token)).toBe(true);
    }
  });

  it('recognises a changed character or a look-alike offline', () => {
    const token = generateToken();
    const flipped = token.slice(0, 10) + (token[10] === 'a' ? 'b' : 'a') + token.slice(11);
    expect(hasValidChecksum(flipped)).toBe(false);
    expect(hasValidChecksum('slw_' + 'a'.repeat(49))).toBe(false);
    expect(hasValidChecksum('ghp_' + token.slice(4))).toBe(false);
  });

  it('stores a SHA-256 digest, never the value', () => {
    const token = generateToken();
    expect(tokenDigest(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenDigest(token)).not.toContain(token.slice(4, 20));
  });
});
