import type { SecretBox } from '../secrets/secret-box.js';
import type { RecordedEnvVar } from '../events/deployments.events.js';
import type { EnvVarInput } from './commands/service-settings.input.js';

/** Secret values are sealed (for the runner) and digested (for diffs); plain ones kept as is. */
export function recordEnv(input: EnvVarInput[] | undefined, box: SecretBox): RecordedEnvVar[] {
  return (input ?? []).map((v) =>
    v.secret
      ? {
          name: v.name,
          value: null,
          secretCiphertext: box.seal(v.value),
          secretDigest: box.digest(v.value),
        }
      : { name: v.name, value: v.value, secretCiphertext: null, secretDigest: null },
  );
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
