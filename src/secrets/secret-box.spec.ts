import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '../config/app-config.js';
import { SecretBox } from './secret-box.js';
import { loadSecretKey } from './secret-key.js';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips, with a fresh IV every time', () => {
    const a = box.seal('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    expect(box.open(a)).toBe('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    expect(box.seal('same')).not.toBe(box.seal('same'));
    expect(a).not.toContain('JBSWY3DP');
  });

  it('refuses a tampered or foreign ciphertext', () => {
    const sealed = box.seal('secret');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('x').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
  });
});

describe('loadSecretKey', () => {
  it('creates a 0600 key file once and reads the same key back', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'slipway-key-'));
    const config = { ...loadConfig({}), dataDir };
    const first = loadSecretKey(config);
    expect(first).toHaveLength(32);
    expect(statSync(join(dataDir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(loadSecretKey(config).equals(first)).toBe(true);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prefers SLIPWAY_SECRET_KEY', () => {
    const key = randomBytes(32).toString('base64');
    expect(loadSecretKey(loadConfig({ SLIPWAY_SECRET_KEY: key })).toString('base64')).toBe(key);
  });
});
