import { createHash, timingSafeEqual } from 'node:crypto';
import type { SecretBox } from '../secrets/secret-box.js';
import type { RecordedEnvVar } from '../events/deployments.events.js';
import type { EnvVarInput } from './commands/service-settings.input.js';

/**
 * Secret values are sealed (for the runner) and nothing more; plain ones kept as is. No digest
 * of a secret value is recorded: events are readable in the audit export, and a keyed digest of
 * a value the caller chose would let anyone who can set values test guesses against it (and
 * hand out the key's output for any message they like).
 */
export function recordEnv(input: EnvVarInput[] | undefined, box: SecretBox): RecordedEnvVar[] {
  return (input ?? []).map((v) =>
    v.secret
      ? { name: v.name, value: null, secretCiphertext: box.seal(v.value), secretDigest: null }
      : { name: v.name, value: v.value, secretCiphertext: null, secretDigest: null },
  );
}

const opened = (box: SecretBox, v: RecordedEnvVar): Buffer | null => {
  if (!v.secretCiphertext) return null;
  try {
    return createHash('sha256').update(box.open(v.secretCiphertext), 'utf8').digest();
  } catch {
    return null;
  }
};

/**
 * Whether two recorded secret values are the same, compared sealed value to sealed value. Values
 * recorded by earlier versions also carry a digest: when one of them cannot be opened any more
 * (the secret key changed), two such digests still tell; otherwise the value counts as changed.
 */
export function sameSecretValue(box: SecretBox, a: RecordedEnvVar, b: RecordedEnvVar): boolean {
  const [x, y] = [opened(box, a), opened(box, b)];
  if (x && y) return timingSafeEqual(x, y);
  return a.secretDigest !== null && a.secretDigest === b.secretDigest;
}

export const MASK = '********';

/** What reads show: secret values masked, never ciphertext or digests. */
export function maskEnv(env: RecordedEnvVar[]): { name: string; value: string; secret: boolean }[] {
  return env.map((v) => ({
    name: v.name,
    value: v.secretCiphertext ? MASK : (v.value ?? ''),
    secret: !!v.secretCiphertext,
  }));
}
