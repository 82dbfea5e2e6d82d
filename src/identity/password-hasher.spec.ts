import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import argon2 from 'argon2';
import { SecretBox } from '../secrets/secret-box.js';
import { PasswordHasher } from './password-hasher.js';

describe('PasswordHasher', () => {
  const box = new SecretBox(randomBytes(32));
  const hasher = new PasswordHasher(box);

  it('records no hash anyone could try passwords against: it is sealed with the service key', async () => {
    const stored = await hasher.hash('correct horse battery');
    expect(stored).not.toContain('argon2');
    expect(box.open(stored)).toMatch(/^\$argon2id\$/);
    expect(await hasher.verify(stored, 'correct horse battery')).toBe(true);
    expect(await hasher.verify(stored, 'wrong horse battery')).toBe(false);
    // Under another service key it opens to nothing.
    expect(
      await new PasswordHasher(new SecretBox(randomBytes(32))).verify(
        stored,
        'correct horse battery',
      ),
    ).toBe(false);
  });

  it('still verifies a hash recorded in clear', async () => {
    const clear = await argon2.hash('correct horse battery', { type: argon2.argon2id });
    expect(await hasher.verify(clear, 'correct horse battery')).toBe(true);
    expect(await hasher.verify(clear, 'wrong horse battery')).toBe(false);
    expect(await hasher.verify(null, 'correct horse battery')).toBe(false);
  });
});
