import type { FieldIssue } from '../../common/app-error.js';
import { isMap } from './compose-merge.js';

/**
 * Slipway's own names on every server: its shared edge network (`slipway-edge`) and the aliases
 * its proxy dials there (`slipway-<hash>`). A compose file that took one could join that network
 * as a network of its own, past the policy, or answer on it for another service's domain.
 */
const RESERVED = /^slipway-/i;
const MESSAGE = 'names starting slipway- are kept for Slipway’s edge network and proxy';

/** Each network, alias, container name and service name of the document that takes one. */
export function reservedNameIssues(doc: Record<string, unknown>): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const taken = (value: unknown) => typeof value === 'string' && RESERVED.test(value);
  for (const [key, definition] of Object.entries(isMap(doc.networks) ? doc.networks : {})) {
    if (taken(key) || (isMap(definition) && taken(definition.name)))
      issues.push({ path: `compose.networks.${key}`, message: MESSAGE });
  }
  for (const [name, service] of Object.entries(isMap(doc.services) ? doc.services : {})) {
    const at = `compose.services.${name}`;
    if (taken(name)) issues.push({ path: at, message: MESSAGE });
    if (!isMap(service)) continue;
    if (taken(service.container_name))
      issues.push({ path: `${at}.container_name`, message: MESSAGE });
    // A list names networks alone; a map gives each its settings.
    const networks = Array.isArray(service.networks)
      ? Object.fromEntries(service.networks.map((n) => [String(n), null]))
      : isMap(service.networks)
        ? service.networks
        : {};
    for (const [network, settings] of Object.entries(networks)) {
      const aliases = isMap(settings) && Array.isArray(settings.aliases) ? settings.aliases : [];
      if (taken(network) || aliases.some(taken))
        issues.push({ path: `${at}.networks.${network}`, message: MESSAGE });
    }
  }
  return issues;
}
