import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
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

describe('SecretBox keys: one per purpose', () => {
  const key = randomBytes(32);
  const box = new SecretBox(key);

  it('seals as v2 under a derived key, and still opens v1 values sealed under the key itself', () => {
    expect(box.seal('x').startsWith('v2.')).toBe(true);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update('old secret', 'utf8'), cipher.final()]);
    const v1 = ['v1', ...[iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'))];
    expect(box.open(v1.join('.'))).toBe('old secret');
    expect(() => box.open(['v3', ...v1.slice(1)].join('.'))).toThrow();
  });

  it('MACs each purpose under its own key, none of them the lookup digest', () => {
    const message = 'slipway:mcp-plan-claim:v1\nabc';
    const plain = createHmac('sha256', key).update(message).digest('hex');
    expect(box.digest(message)).toBe(plain);
    const plan = box.mac('mcp-plan-id', message);
    const device = box.mac('login-device', message);
    expect(new Set([plain, plan, device]).size).toBe(3);
    expect(box.mac('mcp-plan-id', message)).toBe(plan);
    expect(new SecretBox(randomBytes(32)).mac('mcp-plan-id', message)).not.toBe(plan);
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
