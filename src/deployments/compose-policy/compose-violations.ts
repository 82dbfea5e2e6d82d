import type { ComposeViolation } from './compose-capabilities.js';
import { Findings } from './findings.js';
import { judgeKeys } from './key-table.js';
import { TOP_LEVEL_KEYS } from './top-level-keys.js';

export interface ComposeJudgement {
  /** What the document asks of its server that the policy guards, with where. */
  violations: ComposeViolation[];
  /** Paths of keys that are not Compose keys: the document is refused as invalid. */
  unknownKeys: string[];
}

/**
 * Judges every key of a parsed compose document (merge keys and aliases already resolved) by
 * the allow-list of the Compose specification's keys. A pure function: no I/O, the same answer
 * for the same document.
 */
export function judgeCompose(
  document: unknown,
  extraSensitive: readonly string[] = [],
): ComposeJudgement {
  const f = new Findings(extraSensitive);
  judgeKeys(document, TOP_LEVEL_KEYS, 'compose', f);
  return { violations: f.list, unknownKeys: f.unknownKeys };
}

/** Everything a parsed compose document asks of the host that the compose policy guards. */
export function composeViolations(
  document: unknown,
  extraSensitive: readonly string[] = [],
): ComposeViolation[] {
  return judgeCompose(document, extraSensitive).violations;
}

/** The violations a server's policy does not allow. */
export function refusedViolations(
  violations: ComposeViolation[],
  allow: readonly string[],
): ComposeViolation[] {
  return violations.filter((v) => !allow.includes(v.capability));
}
