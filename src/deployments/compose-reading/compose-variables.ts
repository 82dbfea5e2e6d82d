import type { ComposeVariables } from './interpolation.js';

/** A service variable as recorded (sealed when secret) or as given in a request. */
export interface VariableEntry {
  name: string;
  value: string | null;
  secretCiphertext?: string | null;
  secret?: boolean;
}

const isSecret = (v: VariableEntry): boolean => !!v.secretCiphertext || v.secret === true;

/**
 * The variables a compose file is judged with (validated, policed, planned): plain values as
 * they are; a secret stays the reference it is (`${NAME}`), so nothing judged, and no message
 * about it, holds a secret, and the policy treats the place as unknown (its strictest reading).
 */
export function judgingVariables(env: readonly VariableEntry[] = []): ComposeVariables {
  return new Map(env.map((v) => [v.name, isSecret(v) ? `\${${v.name}}` : (v.value ?? '')]));
}

/** The variables a deployment runs with: secrets opened (only ever in the runner). */
export function runningVariables(
  env: readonly VariableEntry[],
  open: (ciphertext: string) => string,
): ComposeVariables {
  return new Map(
    env.map((v) => [v.name, v.secretCiphertext ? open(v.secretCiphertext) : (v.value ?? '')]),
  );
}
