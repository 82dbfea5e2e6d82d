import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../config/app-config.js';

/**
 * The service's secret key: each use takes a key derived from it for that purpose alone
 * (`secret-keys.ts`), except the lookup digests and values sealed before that (`SecretBox`).
 * `SLIPWAY_SECRET_KEY` wins; otherwise `secret.key` in the data directory, created on first
 * start with mode 0600. It lives outside the event store: a copy of the events alone cannot
 * reveal a TOTP seed.
 */
export function loadSecretKey(config: AppConfig): Buffer {
  if (config.secretKey) return Buffer.from(config.secretKey, 'base64');
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const file = join(config.dataDir, 'secret.key');
  if (!existsSync(file)) {
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
  return key;
}

export const SECRET_KEY = Symbol('SECRET_KEY');
