import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ServerEdgeDoc } from '../../../projections/server-edges.projection.js';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { errorForLog } from '../../common/log-text.js';
import { PeriodicPass } from '../../common/periodic-pass.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { systemContext } from '../../kernel/request-context.js';
import { readAll } from '../../readstore/read-page.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { EdgeCertificates } from './edge-certificates.js';
import { EdgeProxy } from './edge-proxy.js';

const logger = new Logger('Edge');

/**
 * Every SLIPWAY_EDGE_WATCH_SECONDS (with the runner on): each server whose services have routes,
 * or whose proxy last routed something, is synced, so a proxy removed, stopped or changed by
 * hand is noticed and rebuilt from the events. A sync that finds everything in place changes
 * and records nothing. Then the certificates of its TLS domains are read back (issued, renewed,
 * failing, expiring soon), which is also how a failure or an expiry reaches the channels.
 */
@Injectable()
export class EdgeWatch extends PeriodicPass {
  constructor(
    private readonly edge: EdgeProxy,
    private readonly certificates: EdgeCertificates,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  protected override intervalSeconds(): number {
    return this.config.runner.mode === 'off' ? 0 : this.config.edge.watchSeconds;
  }

  /** The servers to look at: with routed services, or whose proxy routed something. */
  async servers(): Promise<string[]> {
    const routed = (await readAll(this.reads.collection<ServiceDoc>('services'), {})).map((s) =>
      s.status !== 'archived' && s.routes?.length ? s.serverId : '',
    );
    const edges = (
      await readAll(this.reads.collection<ServerEdgeDoc>('server_edges'), { routes: { $gt: 0 } })
    ).map((e) => e.id);
    const candidates = [...new Set([...routed, ...edges])].filter(Boolean);
    const servers = await Promise.all(
      candidates.map((id) => this.reads.collection<ServerDoc>('servers').get(id)),
    );
    return servers
      .filter((s): s is ServerDoc => !!s && s.hostKeyApproved && s.status !== 'decommissioned')
      .map((s) => s.id);
  }

  protected async pass(): Promise<void> {
    try {
      const ctx = systemContext('edge-watch');
      for (const serverId of await this.servers()) {
        const synced = await this.edge.sync(serverId, 'watch', ctx).then(
          () => true,
          (error: unknown) => {
            logger.warn(
              `The edge proxy of server ${serverId} could not be synced: ${errorForLog(error)}`,
            );
            return false;
          },
        );
        if (synced)
          await this.certificates
            .observe(serverId, ctx)
            .catch((error: unknown) =>
              logger.warn(
                `The certificates of server ${serverId} could not be read: ${errorForLog(error)}`,
              ),
            );
      }
    } catch (error) {
      logger.error('The edge watch failed', errorForLog(error));
    }
  }
}
