import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { systemClock } from '../common/clock.js';
import { SecretBox } from '../secrets/secret-box.js';
import { ERASED } from '../events/personal-value.js';
import { PersonalData } from './personal-data.js';
import { SubjectKeyVault } from './subject-key-vault.js';

describe('personal data (crypto-shredding)', () => {
  const dirs: string[] = [];
  const vaults: SubjectKeyVault[] = [];
  afterEach(() => {
    vaults.splice(0).forEach((v) => v.close());
    dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
  });
  const open = (dir = mkdtempSync(join(tmpdir(), 'slipway-pii-')), key = randomBytes(32)) => {
    dirs.push(dir);
    const vault = new SubjectKeyVault(dir, new SecretBox(key));
    vaults.push(vault);
    return { dir, key, personal: new PersonalData(vault, systemClock, new SecretBox(key)) };
  };

  it('is erased for every replica sharing the data directory, not only the one that erased', async () => {
    const a = open();
    const b = open(a.dir, a.key);
    const sealed = a.personal.protect('user-1', 'ann@example.com')!;
    // b reads the same key, and keeps it...
    expect(b.personal.reveal(sealed)).toBe('ann@example.com');
    expect(b.personal.reveal(sealed)).toBe('ann@example.com');
    // ... until a erases the subject: then, from the next turn of the event loop, b cannot
    // open it either.
    expect(a.personal.erase('user-1')).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(b.personal.reveal(sealed)).toBe(ERASED);
  });

  it('seals a value under its subject and opens it, until the subject is erased', () => {
    const { personal } = open();
    const sealed = personal.protect('user-1', 'ann@example.com')!;
    expect(JSON.stringify(sealed)).not.toContain('ann@example.com');
    expect(personal.reveal(sealed)).toBe('ann@example.com');
    const other = personal.protect('user-2', 'bob@example.com');
    expect(personal.erase('user-1')).toBe(true);
    expect(personal.reveal(sealed)).toBe(ERASED);
    expect(personal.reveal(other)).toBe('bob@example.com');
    expect(personal.erase('user-1')).toBe(false);
    // Erasure is final: a new value for the subject is not stored readable either.
    expect(personal.reveal(personal.protect('user-1', 'again'))).toBe(ERASED);
  });

  it('keeps keys sealed on disk and erasure survives a restart', () => {
    const first = open();
    const sealed = first.personal.protect('user-1', 'ann@example.com');
    first.personal.erase('user-1');
    vaults.pop()!.close();
    const again = open(first.dir, first.key);
    expect(again.personal.reveal(sealed)).toBe(ERASED);
    expect(readFileSync(join(first.dir, 'subject-keys.db')).includes(Buffer.from('ann'))).toBe(
      false,
    );
  });

  it('passes plaintext from older events through, and gives a keyed lookup digest', () => {
    const { personal } = open();
    expect(personal.reveal('legacy@example.com')).toBe('legacy@example.com');
    expect(personal.reveal(null)).toBeNull();
    expect(personal.lookupDigest('email', 'a@x.io')).toBe(personal.lookupDigest('email', 'a@x.io'));
    expect(personal.lookupDigest('email', 'a@x.io')).not.toContain('a@x.io');
  });
});

describe('retention of anonymous client addresses', () => {
  it('erases the monthly keys older than the retention period, and only those', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slipway-pii-'));
    const key = randomBytes(32);
    let now = new Date('2026-01-15T00:00:00Z');
    const clock = { now: () => now };
    const vault = new SubjectKeyVault(dir, new SecretBox(key));
    const personal = new PersonalData(vault, clock, new SecretBox(key));
    try {
      const january = personal.protect(personal.anonymousSubject(), '203.0.113.1');
      now = new Date('2026-02-10T00:00:00Z');
      const february = personal.protect(personal.anonymousSubject(), '203.0.113.2');
      now = new Date('2026-03-01T00:00:00Z');
      // Opened once before expiry: the value is then held in memory, which expiry must empty.
      expect(personal.reveal(january)).toBe('203.0.113.1');
      expect(personal.expireAnonymous(0)).toEqual([]);
      expect(personal.expireAnonymous(1)).toEqual(['anonymous-2026-01']);
      expect(personal.reveal(january)).toBe(ERASED);
      expect(personal.reveal(february)).toBe('203.0.113.2');
    } finally {
      vault.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
