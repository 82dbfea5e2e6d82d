import { Inject, Injectable } from '@nestjs/common';
import type { ServerEdgeDoc } from '../../../projections/server-edges.projection.js';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { conflict } from '../../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import { routeTls } from '../../deployments/routes/route-rules.js';
import {
  GENERIC_FAILURES,
  seesConnectionDetails,
} from '../../deployments/reach/connection-failures.js';
import {
  EdgeUpstreamsSwitched,
  ServerEdgeSynced,
  serverEdgeStream,
  serviceEdgeStream,
  type EdgeSyncReason,
  type EdgeUpstream,
} from '../../events/edge.events.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { readAll } from '../../readstore/read-page.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { EventWriter } from '../../storage/event-writer.js';
import { composeProject } from '../../deployments/compose-project.js';
import { ServerSessions } from '../server-sessions.js';
import type { SshSession } from '../ssh-session.js';
import {
  caddyConfig,
  upstreamFile,
  type EdgeConfig,
  type EdgeSite,
  type EdgeUpstreamSlots,
} from './caddy-config.js';
import { EDGE_CONTAINER } from './edge-container.js';
import { EDGE_NETWORK, edgeAlias } from './edge-network.js';
import { EDGE_SYNC_SCRIPT } from './edge-sync-script.js';

/** What a sync did: the configuration it brought the proxy to, and the changes that took. */
export interface EdgeSyncOutcome {
  serverId: string;
  configSha256: string;
  routes: number;
  /**
   * `started`, `restarted`, `upgraded`, `reloaded`, `switched` (upstream files rewritten, no
   * reload), `network-created`, `connected <p>/<s>`.
   */
  actions: string[];
}

/** What a deployment's sync brings: the upstreams it switches to, and its open connection. */
export interface UpstreamSwitch {
  serviceId: string;
  upstreams: EdgeUpstream[];
  /** The deployment's SSH session to the server, used (and left open) instead of a new one. */
  session?: SshSession;
  /** The deployment that switches: its EdgeUpstreamsSwitched is recorded before the next sync. */
  deploymentId?: string;
}

/**
 * A host as a dial address's host part: an IPv6 address in brackets. Anything else than an
 * address or a Docker name is refused (it is written to a file the script reads line by line).
 */
function dialHost(host: string): string {
  if (!/^[A-Za-z0-9._:-]{1,253}$/.test(host))
    throw conflict('An upstream is not a host name or address');
  return host.includes(':') ? `[${host}]` : host;
}

/** A server's routed services, as the read model knows them (active ones only). */
async function routedServices(reads: ReadStore, serverId: string): Promise<ServiceDoc[]> {
  const services = await readAll(reads.collection<ServiceDoc>('services'), { serverId });
  return services.filter((s) => s.status !== 'archived' && s.routes?.length);
}

/**
 * The edge proxy of each server, run and configured by Slipway over the server's SSH connection:
 * Caddy in the container `slipway-edge` on the Docker network `slipway-edge`, its admin API on a
 * socket inside that container, its whole configuration derived from the services' routes. A
 * sync is idempotent: it starts, restarts or upgrades the container when it must, loads the
 * configuration when it changed, and joins routed containers to the edge network. Each sync
 * that changed something or failed is recorded as ServerEdgeSynced.
 */
@Injectable()
export class EdgeProxy {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly sessions: ServerSessions,
    private readonly writer: EventWriter,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The sites a server's proxy serves, the hosts its upstream slots hold, and the triples that
   * join their containers: each routed compose service goes to the containers its last gapless
   * deployment switched to, else to its edge alias.
   */
  async desired(serverId: string, switching?: UpstreamSwitch) {
    const sites: EdgeSite[] = [];
    const joins: string[] = [];
    const upstreamFiles: string[] = [];
    for (const service of await routedServices(this.reads, serverId)) {
      const project = composeProject(service.name, service.environment);
      const upstreams = { ...service.upstreams };
      if (switching?.serviceId === service.id)
        for (const u of switching.upstreams) upstreams[u.service] = u.addresses ?? u.containers;
      const slots = new Map<string, EdgeUpstreamSlots>();
      for (const composeService of new Set((service.routes ?? []).map((r) => r.service))) {
        const key = edgeAlias(project, composeService);
        const hosts = upstreams[composeService]?.length ? upstreams[composeService] : [key];
        hosts.forEach((host, slot) =>
          upstreamFiles.push(`${upstreamFile(key, slot)} ${dialHost(host)}`),
        );
        slots.set(composeService, { key, slots: hosts.length });
        joins.push(project, composeService, key);
      }
      for (const route of service.routes ?? []) {
        const { tls, hsts } = routeTls(route);
        sites.push({
          domain: route.domain,
          pathPrefix: route.pathPrefix,
          upstream: slots.get(route.service)!,
          port: route.port,
          tls: tls === 'auto',
          hsts,
        });
      }
    }
    return { config: caddyConfig(sites, this.config.edge.acme), joins, upstreamFiles };
  }

  /** One sync at a time per server in this process: each sees the configuration the last left. */
  private readonly queues = new Map<string, Promise<unknown>>();

  sync(
    serverId: string,
    reason: EdgeSyncReason,
    ctx: RequestContext,
    switching?: UpstreamSwitch,
  ): Promise<EdgeSyncOutcome> {
    const before = this.queues.get(serverId) ?? Promise.resolve();
    const next = before
      .catch(() => undefined)
      .then(() => this.syncNow(serverId, reason, ctx, switching));
    this.queues.set(serverId, next);
    void next
      .finally(() => {
        if (this.queues.get(serverId) === next) this.queues.delete(serverId);
      })
      .catch(() => undefined);
    return next;
  }

  private async syncNow(
    serverId: string,
    reason: EdgeSyncReason,
    ctx: RequestContext,
    switching?: UpstreamSwitch,
  ): Promise<EdgeSyncOutcome> {
    const server = await this.lookup.server(serverId);
    if (!server.hostKeyApproved)
      throw conflict(`Approve the host key of server ${server.name} first`);
    const { config, joins, upstreamFiles } = await this.desired(serverId, switching);
    const outcome = { serverId, configSha256: config.sha256, routes: config.routes };
    let result: { code: number | null; actions: string[]; errors: string[] };
    try {
      result = await this.run(server, config, upstreamFiles, joins, ctx, switching?.session);
    } catch (error) {
      // Recorded for every reader of serverDetails: the class of failure, never its details.
      const failure = `the edge sync ${GENERIC_FAILURES.connect}`;
      if (await this.worthRecording(serverId, reason, [], failure))
        await this.record({ ...outcome, actions: [] }, reason, ctx, failure);
      throw error;
    }
    const ok = result.code === 0;
    const failure = ok ? null : result.errors.join('\n').slice(-2000) || `exit ${result.code}`;
    if (await this.worthRecording(serverId, reason, result.actions, failure))
      await this.record({ ...outcome, actions: result.actions }, reason, ctx, failure);
    if (!ok) throw conflict('The edge proxy could not be synced', { output: result.errors });
    if (switching?.deploymentId) {
      // Recorded (and in the read model) before the next sync of this server derives its
      // configuration, so that none goes back to the containers about to be retired.
      const { serviceId, upstreams, deploymentId } = switching;
      await this.writer.append(
        serviceEdgeStream(serviceId),
        [EdgeUpstreamsSwitched({ serviceId, serverId, deploymentId, upstreams })],
        'any',
        ctx,
      );
    }
    return { ...outcome, actions: result.actions };
  }

  private async run(
    server: ServerDoc,
    config: EdgeConfig,
    upstreamFiles: string[],
    joins: string[],
    ctx: RequestContext,
    open?: SshSession,
  ) {
    const { edge, runner } = this.config;
    let session: SshSession;
    try {
      session = open ?? (await this.sessions.open(server));
    } catch (error) {
      throw conflict(
        seesConnectionDetails(ctx)
          ? `Could not connect to the server: ${error instanceof Error ? error.message : String(error)}`
          : `The edge sync ${GENERIC_FAILURES.connect}`,
      );
    }
    const actions: string[] = [];
    const errors: string[] = [];
    try {
      const args = [
        'sh',
        '-c',
        EDGE_SYNC_SCRIPT,
        'slipway-edge-sync',
        EDGE_NETWORK,
        EDGE_CONTAINER,
        edge.image,
        `${runner.remoteDir}/edge`,
        edge.publish.join(','),
        config.caRootFile ?? '',
        config.caRootFile ? (edge.acme.caRootPem ?? '') : '',
        upstreamFiles.join('\n'),
        ...joins,
      ];
      const { code } = await session.exec(args, {
        stdin: config.json,
        onLine: (stream, text) => {
          const action = stream === 'stdout' ? /^action: (.+)$/.exec(text)?.[1] : undefined;
          if (action) actions.push(action);
          else if (stream === 'stderr' && errors.length < 50) errors.push(text.slice(0, 500));
        },
      });
      return { code, actions, errors };
    } finally {
      if (!open) session.close();
    }
  }

  /**
   * Every sync asked for is recorded; the watch's only when it changed something, or failed
   * otherwise than the last recorded sync did (a server that stays unreachable is recorded once,
   * not once a minute).
   */
  private async worthRecording(
    serverId: string,
    reason: EdgeSyncReason,
    actions: string[],
    failure: string | null,
  ): Promise<boolean> {
    if (reason !== 'watch' || actions.length) return true;
    if (failure === null) return false;
    const last = await this.reads.collection<ServerEdgeDoc>('server_edges').get(serverId);
    return !last || last.ok || last.failure !== failure;
  }

  private async record(
    outcome: EdgeSyncOutcome,
    reason: EdgeSyncReason,
    ctx: RequestContext,
    failure: string | null,
  ): Promise<void> {
    await this.writer.append(
      serverEdgeStream(outcome.serverId),
      [ServerEdgeSynced({ ...outcome, reason, ok: failure === null, failure })],
      'any',
      ctx,
    );
  }
}
