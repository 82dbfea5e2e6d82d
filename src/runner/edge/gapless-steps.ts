import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import { deployStrategies } from '../../deployments/strategy/deploy-strategy.js';
import { readComposeDocument } from '../../deployments/compose.js';
import { judgingVariables } from '../../deployments/compose-reading/compose-variables.js';
import type { EdgeUpstream } from '../../events/edge.events.js';
import type { LocalStep, RemoteStep } from '../deployment-step.js';
import { EDGE_NETWORK } from './edge-network.js';
import {
  PROBE_NEW,
  REMOVE_NEW,
  RETIRE_OLD,
  START_NEW,
  WAIT_NEW_HEALTHY,
} from './gapless-scripts.js';

/** How long a retired container has to stop after SIGTERM (the drain has already passed). */
const RETIRE_GRACE_SECONDS = 10;

/** A deployment's compose, normalized with its variables as it was judged. */
function readDeploymentCompose(deployment: DeploymentDoc) {
  return readComposeDocument(
    deployment.snapshot.compose,
    judgingVariables(deployment.snapshot.env),
  );
}

/** The compose services of a deployment that go beside their running version. */
export function gaplessServices(deployment: DeploymentDoc): string[] {
  const routes = deployment.snapshot.routes ?? [];
  if (!routes.length) return [];
  const parsed = readDeploymentCompose(deployment);
  if (!parsed.ok) return [];
  return deployStrategies(parsed.document, routes)
    .filter((s) => s.strategy === 'gapless')
    .map((s) => s.service);
}

/**
 * How many containers of a compose service its definition asks for (`deploy.replicas`, else
 * `scale`); 0 when it does not say: as many as run now.
 */
export function replicasOf(deployment: DeploymentDoc, service: string): number {
  const parsed = readDeploymentCompose(deployment);
  if (!parsed.ok) return 0;
  const definition = (parsed.document as { services?: Record<string, Record<string, unknown>> })
    .services?.[service];
  const deploy = definition?.deploy as { replicas?: unknown } | undefined;
  const count = deploy?.replicas ?? definition?.scale;
  return typeof count === 'number' && Number.isInteger(count) && count > 0 ? count : 0;
}

/** The path and strictness of the probe of new containers: the health check URL's, else `/`. */
function probeOf(deployment: DeploymentDoc): { path: string; strict: boolean } {
  const url = deployment.snapshot.healthCheckUrl;
  if (!url) return { path: '/', strict: false };
  const { pathname, search } = new URL(url);
  return { path: `${pathname}${search}`, strict: true };
}

/**
 * A gapless deployment's steps for its routed compose services, in order: the edge proxy synced
 * (running, on its network), new containers started beside the old ones, their health checks,
 * each asked over HTTP from inside the proxy, the proxy switched to them at once (no reload),
 * the old ones drained and retired. Until the switch, a failure removes the new containers (`undo`) and
 * the old ones go on serving; after it, the new version serves.
 */
export function gaplessSteps(
  deployment: DeploymentDoc,
  dir: string,
  project: string,
  timeouts: { stepTimeoutSeconds: number },
): { before: (RemoteStep | LocalStep)[]; after: RemoteStep[]; services: string[] } {
  const services = gaplessServices(deployment);
  const edgeSync: LocalStep = { name: 'edge-sync', local: 'edge-sync' };
  if (!services.length) return { before: [edgeSync], after: [], services };
  const counts = services.map((s) => `${s}=${replicasOf(deployment, s)}`);
  const routes = (deployment.snapshot.routes ?? []).filter((r) => services.includes(r.service));
  // One probe per compose service and port, named by the first domain routed to it.
  const probes = new Map(routes.map((r) => [`${r.service} ${r.port}`, r.domain] as const));
  const ports = [...probes].flatMap(([key, domain]) => [...key.split(' '), domain]);
  const probe = probeOf(deployment);
  const undo = ['sh', '-c', REMOVE_NEW, 'slipway', dir, project, ...services];
  const limit = String(timeouts.stepTimeoutSeconds);
  return {
    before: [
      edgeSync,
      {
        name: 'start-new',
        args: ['sh', '-c', START_NEW, 'slipway', dir, project, EDGE_NETWORK, ...counts],
        undo,
      },
      {
        name: 'health-new',
        args: ['sh', '-c', WAIT_NEW_HEALTHY, 'slipway', limit, dir, ...services],
      },
      {
        name: 'probe-new',
        args: [
          'sh',
          '-c',
          PROBE_NEW,
          'slipway',
          limit,
          dir,
          EDGE_NETWORK,
          probe.path,
          probe.strict ? '1' : '0',
          ...ports,
        ],
      },
      { name: 'switch', local: 'switch' },
      { name: 'drain', local: 'drain' },
    ],
    after: [
      {
        name: 'retire',
        args: ['sh', '-c', RETIRE_OLD, 'slipway', String(RETIRE_GRACE_SECONDS), dir, ...services],
      },
    ],
    services,
  };
}

/**
 * What the deployment's `compose up` names once the gapless services went beside their old
 * version: only the other services (`--no-deps`, so none of the gapless ones is recreated under
 * the proxy's pinned addresses), or, when every service was gapless, nothing to recreate.
 * Orphans are removed either way.
 */
export function upTargets(deployment: DeploymentDoc, gapless: readonly string[]): string[] {
  if (!gapless.length) return [];
  const parsed = readDeploymentCompose(deployment);
  const all = parsed.ok
    ? Object.keys((parsed.document as { services?: object }).services ?? {})
    : [];
  const others = all.filter((s) => !gapless.includes(s));
  return others.length ? ['--no-deps', ...others] : ['--no-recreate'];
}

/**
 * `new <service> <container> <address>` lines of start-new: the upstreams to switch to. The
 * proxy dials the addresses (no name lookup on a request's path); the names are for people.
 */
export function newContainers(stdout: string[]): EdgeUpstream[] {
  const byService = new Map<string, EdgeUpstream>();
  for (const line of stdout) {
    const match = /^new (\S+) (\S+)(?: (\S+))?$/.exec(line.trim());
    if (!match) continue;
    const [, service, container, address] = match;
    const upstream = byService.get(service) ?? { service, containers: [], addresses: [] };
    upstream.containers.push(container);
    if (address) upstream.addresses?.push(address);
    byService.set(service, upstream);
  }
  return [...byService.values()].map((u) =>
    u.addresses?.length === u.containers.length
      ? u
      : { service: u.service, containers: u.containers },
  );
}
