import { Inject, Logger } from '@nestjs/common';
import { EventsHandler } from '@nestjs/cqrs';
import { errorForLog } from '../../common/log-text.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { CommittedEventOf } from '../../eventstore/committed-event.js';
import { ServiceRegistered, ServiceUpdated } from '../../events/deployments.events.js';
import { ServiceArchived } from '../../events/lifecycle.events.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import { systemContext } from '../../kernel/request-context.js';
import { READ_MODELS, type ReadModels } from '../../storage/read-models.js';
import { Reaction } from '../../storage/reactions/reaction.js';
import { EdgeProxy } from './edge-proxy.js';

const logger = new Logger('Edge');

type RouteNews =
  | CommittedEventOf<typeof ServiceRegistered>
  | CommittedEventOf<typeof ServiceUpdated>
  | CommittedEventOf<typeof ServiceArchived>;

const NEWS = new Set([ServiceRegistered.type, ServiceUpdated.type, ServiceArchived.type]);

/** Whether the event changes what a server's edge proxy routes (as far as the event says). */
function changesRoutes({ event }: RouteNews): boolean {
  if (event.type === ServiceRegistered.type)
    return !!ServiceRegistered.dataOf(event).routes?.length;
  if (event.type === ServiceUpdated.type) {
    const { changes } = ServiceUpdated.dataOf(event);
    return changes.routes !== undefined || changes.serverId !== undefined;
  }
  return true;
}

/** An update that set the routes (possibly to none). */
function removesRoutes({ event }: RouteNews): boolean {
  return event.type === ServiceUpdated.type && !!ServiceUpdated.dataOf(event).changes.routes;
}

/**
 * Routes added, changed or removed (a service registered with routes, updated, moved or
 * archived) reach the server's edge proxy at once, not at the next deployment or watch: once
 * the read model shows the change, the server's proxy is synced. A sync that fails is logged and
 * recorded; the watch and `syncServerEdge` try again.
 */
@EventsHandler(ServiceRegistered.Committed, ServiceUpdated.Committed, ServiceArchived.Committed)
export class SyncEdgeOnRoutes extends Reaction<RouteNews> {
  constructor(
    private readonly edge: EdgeProxy,
    private readonly lookup: DeploymentLookup,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  protected async react(event: RouteNews): Promise<void> {
    if (this.config.runner.mode === 'off' || !changesRoutes(event)) return;
    await this.readModels.caughtUp(event.position, NEWS);
    const service = await this.lookup.service(event.data.serviceId).catch(() => null);
    if (!service) return;
    // Nothing to change on a server for a service that routes nothing, unless it just stopped.
    if (!service.routes?.length && !removesRoutes(event)) return;
    // A moved service: the server it left stops routing its domains, too.
    const left =
      event.event.type === ServiceUpdated.type
        ? ServiceUpdated.dataOf(event.event).movedFrom
        : undefined;
    for (const serverId of [left, service.serverId]) {
      if (!serverId) continue;
      const server = await this.lookup.server(serverId).catch(() => null);
      if (!server?.hostKeyApproved) continue;
      await this.edge
        .sync(server.id, 'routes', systemContext(`edge-routes:${service.id}`))
        .catch((error: unknown) =>
          logger.warn(
            `The edge proxy of server ${server.id} could not be synced: ${errorForLog(error)}`,
          ),
        );
    }
  }
}
