import { Injectable } from '@nestjs/common';
import { AppError } from '../common/app-error.js';
import type { ServiceRegistered } from '../events/deployments.events.js';
import type { RequestContext } from '../kernel/request-context.js';
import { ComposeProjectClaims } from './compose-project-claims.js';
import { DomainClaims } from './routes/domain-claims.js';
import { domainsOf } from './routes/route-rules.js';
import { ServerStreams } from './server-streams.js';
import { ServiceStreams } from './service-streams.js';

/**
 * A refusal decided before anything was stored (the name was taken, or the caller may not make
 * the change): nothing to keep, so an attachment made for it on the server's stream is taken back.
 */
export const refusedUnstored = (error: unknown) =>
  error instanceof AppError && (error.code === 'CONFLICT' || error.code === 'FORBIDDEN');

/**
 * Records a new service with the claims it makes elsewhere. Its compose project name and its
 * domains are claimed and it is attached on the server's stream first, where decommissioning is
 * decided: of the two, one sees
 * the other's event or conflicts and decides again. Should the service's own write then be
 * refused, the attachment and claims are taken back; any other failure leaves them, which only
 * keeps the server from being decommissioned. Shared by `registerService` and previews.
 */
@Injectable()
export class ServiceRegistrar {
  constructor(
    private readonly services: ServiceStreams,
    private readonly servers: ServerStreams,
    private readonly domains: DomainClaims,
    private readonly projects: ComposeProjectClaims,
  ) {}

  async register(event: Parameters<typeof ServiceRegistered>[0], ctx: RequestContext) {
    const { serviceId, serverId, name, environment } = event;
    // A taken name is refused before the server records an attachment it would take back.
    await this.services.assertFree(name, environment);
    await this.projects.claim(name, environment, serviceId, ctx);
    const domains = domainsOf(event.routes ?? []);
    const releaseClaims = async () => {
      await this.domains.release(serviceId, domains, ctx);
      await this.projects.release(name, environment, serviceId, ctx);
    };
    try {
      await this.domains.claim(serviceId, domains, ctx);
      await this.servers.change({ kind: 'attachService', serverId, serviceId }, ctx);
    } catch (error) {
      await releaseClaims();
      throw error;
    }
    try {
      await this.services.register(event, ctx);
    } catch (error) {
      if (refusedUnstored(error)) {
        await this.servers.change({ kind: 'detachService', serverId, serviceId }, ctx);
        await releaseClaims();
      }
      throw error;
    }
  }
}
