import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../kernel/request-context.js';
import { conflict } from '../common/app-error.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { catalogDecider, catalogHasService } from './catalog.decider.js';
import { DeploymentLookup } from './deployment-lookup.js';
import { CATALOG_STREAM, ServiceRegistered, serviceStream } from '../events/deployments.events.js';
import { serviceDecider, serviceTakenMessage, type ServiceUpdate } from './service.decider.js';

/**
 * Where a service's settings are written: the stream of its name and environment, or, for a
 * service registered before services had their own streams, the legacy `catalog` stream.
 */
@Injectable()
export class ServiceStreams {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly lookup: DeploymentLookup,
  ) {}

  /**
   * Refuses a name and environment already taken, as the streams know it now: a check ahead of
   * writing elsewhere first. Registering decides it again on the stream it claims.
   */
  async assertFree(name: string, environment: string): Promise<void> {
    const legacy = await this.runner.load(CATALOG_STREAM, catalogDecider);
    const own = await this.runner.load(serviceStream(environment, name), serviceDecider);
    if (catalogHasService(legacy, name, environment) || own.serviceId)
      throw conflict(serviceTakenMessage(name, environment));
  }

  async register(event: Parameters<typeof ServiceRegistered>[0], ctx: RequestContext) {
    const legacy = await this.runner.load(CATALOG_STREAM, catalogDecider);
    if (catalogHasService(legacy, event.name, event.environment)) {
      throw conflict(serviceTakenMessage(event.name, event.environment));
    }
    const stream = serviceStream(event.environment, event.name);
    await this.runner.run(stream, serviceDecider, { kind: 'register', event }, ctx);
  }

  async update(command: ServiceUpdate, ctx: RequestContext) {
    // Name and environment never change, so the read model finds the stream; its events decide.
    const { name, environment } = await this.lookup.service(command.event.serviceId);
    const stream = serviceStream(environment, name);
    const own = await this.runner.load(stream, serviceDecider);
    return own.serviceId === command.event.serviceId
      ? this.runner.run(stream, serviceDecider, command, ctx, 50)
      : this.runner.run(CATALOG_STREAM, catalogDecider, command, ctx, 50);
  }
}
