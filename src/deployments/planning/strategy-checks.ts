import { lookup } from 'node:dns/promises';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import type { ServiceRoute } from '../../events/deployments.events.js';
import { readComposeDocument } from '../compose.js';
import { judgingVariables, type VariableEntry } from '../compose-reading/compose-variables.js';
import { deployStrategies, type ServiceStrategy } from '../strategy/deploy-strategy.js';
import { ok, warn, type PreflightCheck } from './plan.js';

function strategiesOf(
  compose: string,
  routes: readonly ServiceRoute[],
  env: readonly VariableEntry[],
): ServiceStrategy[] {
  const parsed = readComposeDocument(compose, judgingVariables(env));
  return parsed.ok ? deployStrategies(parsed.document, routes) : [];
}

/**
 * `deploy-strategy`: how each compose service is replaced and what that risks. A warning when a
 * routed service must be recreated in place: its requests fail while it restarts, and a new
 * version that fails leaves it down.
 */
export function strategyCheck(
  compose: string,
  routes: readonly ServiceRoute[],
  env: readonly VariableEntry[],
): PreflightCheck {
  const strategies = strategiesOf(compose, routes, env);
  const detail = strategies
    .map((s) =>
      s.strategy === 'gapless'
        ? `${s.service}: gapless (no downtime; a failed new version is removed, the old one keeps serving)`
        : `${s.service}: recreate, ${s.why} (down while it restarts; a failed new version leaves it down)`,
    )
    .join('; ');
  const routed = new Set(routes.map((r) => r.service));
  const exposed = strategies.filter((s) => s.strategy === 'recreate' && routed.has(s.service));
  return exposed.length ? warn('deploy-strategy', detail) : ok('deploy-strategy', detail);
}

/** What a deployment does on its server, after what is particular to the plan. */
export function deploySteps(
  compose: string,
  routes: readonly ServiceRoute[],
  env: readonly VariableEntry[],
): string[] {
  const strategies = strategiesOf(compose, routes, env);
  const gapless = strategies.filter((s) => s.strategy === 'gapless').map((s) => s.service);
  const recreated = strategies.filter((s) => s.strategy === 'recreate').map((s) => s.service);
  return [
    'write the frozen compose file to a directory of its own on the server',
    'docker compose pull',
    ...(routes.length ? ['sync the server’s edge proxy (started if missing)'] : []),
    ...(gapless.length
      ? [
          `start ${gapless.join(', ')} beside the running version; wait for health checks and an HTTP answer on the edge network`,
          'switch the edge proxy to the new containers at once (no reload), drain, retire the old ones',
        ]
      : []),
    `docker compose up -d --remove-orphans${recreated.length ? ` (recreates ${recreated.join(', ')} if changed)` : ''}`,
    'health check: container state, and the HTTP probe when the service defines one',
    'record the running image digest',
  ];
}

const LOOKUP_MS = 2000;

/** The addresses a name resolves to, none if it does not within LOOKUP_MS. */
async function addresses(host: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve([]), LOOKUP_MS);
  });
  const found = lookup(host, { all: true }).then(
    (all) => all.map((a) => a.address),
    () => [] as string[],
  );
  try {
    return await Promise.race([found, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `domains-resolve`: each routed domain should resolve to the server's address, or the proxy
 * gets none of its traffic (and no certificate). A warning, not a failure: DNS may be changed
 * after the deployment.
 */
export async function domainCheck(
  routes: readonly ServiceRoute[],
  server: ServerDoc | null,
): Promise<PreflightCheck[]> {
  const domains = [...new Set(routes.map((r) => r.domain))].slice(0, 20);
  if (!domains.length || !server) return [];
  const serverAddresses = new Set(await addresses(server.host));
  const problems: string[] = [];
  await Promise.all(
    domains.map(async (domain) => {
      const found = await addresses(domain);
      if (!found.length) problems.push(`${domain} does not resolve`);
      else if (!found.some((a) => serverAddresses.has(a)))
        problems.push(`${domain} resolves to ${found.join(', ')}, not to ${server.host}`);
    }),
  );
  return problems.length
    ? [warn('domains-resolve', problems.sort().join('; '))]
    : [ok('domains-resolve', `${domains.join(', ')} resolve to ${server.host}`)];
}
