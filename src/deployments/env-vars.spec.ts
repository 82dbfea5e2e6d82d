import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { SecretBox } from '../secrets/secret-box.js';
import type { RecordedEnvVar } from '../events/deployments.events.js';
import { recordEnv, sameSecretValue } from './env-vars.js';

const key = randomBytes(32);
const box = new SecretBox(key);
const secret = (value: string) =>
  recordEnv([{ name: 'TOKEN', value, secret: true }], box)[0] as RecordedEnvVar;
/** As earlier versions recorded it, sealed under a key the service no longer has. */
const unopenable = (value: string): RecordedEnvVar => ({
  name: 'TOKEN',
  value: null,
  secretCiphertext: new SecretBox(randomBytes(32)).seal(value),
  secretDigest: createHmac('sha256', key).update(value).digest('hex'),
});

describe('secret env values: sealed, never digested', () => {
  it('records no digest, and a fresh seal each time', () => {
    const [a, b] = [secret('same'), secret('same')];
    expect([a.secretDigest, a.value]).toEqual([null, null]);
    expect(a.secretCiphertext).not.toBe(b.secretCiphertext);
    expect(sameSecretValue(box, a, b)).toBe(true);
    expect(sameSecretValue(box, a, secret('other'))).toBe(false);
  });

  it('falls back to the digests of old records that no longer open, else says changed', () => {
    expect(sameSecretValue(box, unopenable('v'), unopenable('v'))).toBe(true);
    expect(sameSecretValue(box, unopenable('v'), unopenable('w'))).toBe(false);
    expect(sameSecretValue(box, unopenable('v'), secret('v'))).toBe(false);
  });
});
