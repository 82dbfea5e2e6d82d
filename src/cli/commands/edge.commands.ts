import type { Command } from 'commander';
import type { EdgeSyncOutcome } from '../../runner/edge/edge-proxy.js';
import { CliError } from '../cli-error.js';
import { action } from '../context.js';
import { resolveServer } from './resolve.js';

/** A route as the API takes it. */
export interface RouteArgument {
  domain: string;
  pathPrefix?: string;
  service: string;
  port: number;
  tls?: 'off';
  hsts?: true;
}

const ROUTE = /^([^/=\s]+)(\/[^=\s]*)?=([^:\s]+):(\d{1,5})((?:,(?:no-tls|hsts))*)$/;

/**
 * `--route app.example.com[/prefix]=web:8080[,no-tls][,hsts]`: the domain (and path) → compose
 * service:port; HTTPS unless `no-tls`, Strict-Transport-Security with `hsts`.
 */
export function routeFrom(value: string): RouteArgument {
  const match = ROUTE.exec(value);
  if (!match)
    throw new CliError(
      'BAD_USAGE',
      `--route ${value}: give DOMAIN[/PATH]=SERVICE:PORT[,no-tls][,hsts], e.g. app.example.com=web:8080`,
    );
  const [, domain, pathPrefix, service, port, flags] = match;
  return {
    domain,
    ...(pathPrefix ? { pathPrefix } : {}),
    service,
    port: Number(port),
    ...(flags.includes(',no-tls') ? { tls: 'off' as const } : {}),
    ...(flags.includes(',hsts') ? { hsts: true as const } : {}),
  };
}

/** `slipway servers edge sync <server>`. */
export function registerEdgeCommands(servers: Command): void {
  const edge = servers.command('edge').description('the edge proxy Slipway runs on a server');
  edge
    .command('sync <server>')
    .description(
      'bring the server’s edge proxy to the configuration its services’ routes derive (start, reload, rejoin; safe to repeat)',
    )
    .action(
      action(async (run, server: string) => {
        const client = run.client();
        const serverId = await resolveServer(client, server);
        const outcome = await client.mutation<EdgeSyncOutcome>('syncServerEdge', { serverId });
        run.out.ok(
          outcome,
          () =>
            `Edge proxy of ${server}: ${outcome.routes} route${outcome.routes === 1 ? '' : 's'}, ${outcome.actions.length ? outcome.actions.join(', ') : 'already in sync'}`,
        );
      }),
    );
}
