import { badRequest } from '../common/app-error.js';
import type { RecordedEnvVar } from '../events/deployments.events.js';

/** A change to some of a service's variables; the others stay as recorded. */
export interface EnvPatch {
  set: RecordedEnvVar[];
  remove: string[];
}

export const MAX_SERVICE_ENV_VARS = 200;

/**
 * The service's variables after removing `remove` and setting `set` (by name, in place). Applied
 * by the decider to the variables its stream recorded, so two concurrent patches both land.
 */
export function patchEnv(current: RecordedEnvVar[], patch: EnvPatch): RecordedEnvVar[] {
  const next = current.filter((v) => !patch.remove.includes(v.name));
  for (const v of patch.set) {
    const at = next.findIndex((c) => c.name === v.name);
    if (at >= 0) next[at] = v;
    else next.push(v);
  }
  if (next.length > MAX_SERVICE_ENV_VARS) {
    throw badRequest(`A service has at most ${MAX_SERVICE_ENV_VARS} env vars`, [
      { path: 'setEnv', message: `at most ${MAX_SERVICE_ENV_VARS} env vars in all` },
    ]);
  }
  return next;
}
