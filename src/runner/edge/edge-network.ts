import { createHash } from 'node:crypto';
import { deployStrategies } from '../../deployments/strategy/deploy-strategy.js';
import type { ServiceRoute } from '../../events/deployments.events.js';

/** The Docker network a server's edge proxy shares with the compose services it routes to. */
export const EDGE_NETWORK = 'slipway-edge';

/**
 * The name the edge proxy dials a routed compose service by on the edge network: unique per
 * compose project and service (the plain service name would be shared by every project on it).
 */
export function edgeAlias(project: string, composeService: string): string {
  return `slipway-${createHash('sha256').update(`${project}/${composeService}`).digest('hex').slice(0, 24)}`;
}

type ComposeService = {
  image?: string;
  networks?: string[] | Record<string, unknown> | null;
  [key: string]: unknown;
};
/** The parts of a compose document the deployment rewrites. */
export type ComposeDocument = {
  services: Record<string, ComposeService>;
  networks?: Record<string, unknown> | null;
};

/**
 * Joins each routed compose service to the edge network under its alias, keeping the networks it
 * had (the project's `default` when it named none), and declares the edge network as external:
 * the proxy created it and outlives every project.
 */
export function joinEdgeNetwork(
  doc: ComposeDocument,
  project: string,
  routes: readonly ServiceRoute[],
): void {
  const routed = [...new Set(routes.map((r) => r.service))].filter((s) => doc.services[s]);
  if (!routed.length) return;
  const gapless = new Set(
    deployStrategies(doc, routes)
      .filter((s) => s.strategy === 'gapless')
      .map((s) => s.service),
  );
  for (const name of routed) {
    const service = doc.services[name];
    const networks: Record<string, unknown> = Array.isArray(service.networks)
      ? Object.fromEntries(service.networks.map((n) => [n, {}]))
      : { ...(service.networks ?? { default: {} }) };
    // A gapless service's new containers must get no traffic before the switch names them: the
    // alias the proxy may dial (before any switch) stays with the containers that had it.
    networks[EDGE_NETWORK] = gapless.has(name) ? {} : { aliases: [edgeAlias(project, name)] };
    service.networks = networks;
  }
  doc.networks = {
    ...(doc.networks ?? {}),
    [EDGE_NETWORK]: { name: EDGE_NETWORK, external: true },
  };
}
