import { isMap, type ComposeMap } from '../deployments/compose-reading/compose-merge.js';
import type { ComposeVariables } from '../deployments/compose-reading/interpolation.js';

/**
 * A `name=value` list or map whose entries without a value (`- NAME`, `NAME:` / `NAME: null`)
 * take the variable of that name, or are left out when there is none. Compose would resolve
 * them from its own process environment (the SSH session's HOME, PATH, SSH_CONNECTION...) and
 * the --env-file: what runs would then depend on the server and on how it was reached.
 */
function resolveEntries(entries: unknown, variables: ComposeVariables): unknown {
  if (Array.isArray(entries))
    return entries.flatMap((entry: unknown) => {
      if (typeof entry !== 'string' || entry.includes('=')) return [entry];
      const value = variables.get(entry);
      return value === undefined ? [] : [`${entry}=${value}`];
    });
  if (!isMap(entries)) return entries;
  const resolved: ComposeMap = {};
  for (const [name, value] of Object.entries(entries)) {
    if (value !== null) resolved[name] = value;
    else if (variables.has(name)) resolved[name] = variables.get(name);
  }
  return resolved;
}

/**
 * Gives every valueless entry of the services' `environment` and `build.args` the deployment's
 * variable of that name (secrets opened, the value the deployment's `.env` holds), or drops
 * it: the server's Compose then has nothing left to look up. In place, on the document the
 * deployment runs (the policy judged the one read with the judging variables: these keys are
 * free there, whatever their values).
 */
export function resolveBareEnvironment(document: ComposeMap, variables: ComposeVariables): void {
  const services = isMap(document.services) ? document.services : {};
  for (const service of Object.values(services)) {
    if (!isMap(service)) continue;
    if (service.environment !== undefined)
      service.environment = resolveEntries(service.environment, variables);
    if (isMap(service.build) && service.build.args !== undefined)
      service.build = { ...service.build, args: resolveEntries(service.build.args, variables) };
  }
}
