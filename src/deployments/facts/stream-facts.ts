import { Injectable } from '@nestjs/common';
import { serversProjection, type ServerDoc } from '../../../projections/servers.projection.js';
import { servicesProjection, type ServiceDoc } from '../../../projections/services.projection.js';
import { notFound } from '../../common/app-error.js';
import {
  CATALOG_STREAM,
  FLEET_STREAM,
  serverStream,
  serviceStream,
} from '../../events/deployments.events.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { streamDocuments } from './stream-documents.js';

const serviceDocuments = streamDocuments<ServiceDoc>(servicesProjection, 'services');
const serverDocuments = streamDocuments<ServerDoc>(serversProjection, 'servers');

/**
 * A service's or server's settings and status as a command's precondition: folded from the
 * entity's own stream (or, for one registered before entities had their own streams, the legacy
 * `catalog`/`fleet` stream), never taken from a read model that may lag behind it. The read
 * model only finds the stream: names and environments never change.
 */
@Injectable()
export class StreamFacts {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly lookup: DeploymentLookup,
  ) {}

  async service(serviceId: string): Promise<ServiceDoc> {
    const { name, environment } = await this.lookup.service(serviceId);
    const own = await this.runner.load(serviceStream(environment, name), serviceDocuments);
    const doc =
      own.get(serviceId) ??
      (await this.runner.load(CATALOG_STREAM, serviceDocuments)).get(serviceId);
    if (!doc) throw notFound('No such service');
    return doc;
  }

  /** A service on the stream of its name, or null: for one just registered, by its id. */
  async serviceNamed(environment: string, name: string, serviceId: string) {
    const own = await this.runner.load(serviceStream(environment, name), serviceDocuments);
    return own.get(serviceId) ?? null;
  }

  async server(serverId: string): Promise<ServerDoc> {
    const { name } = await this.lookup.server(serverId);
    const own = await this.runner.load(serverStream(name), serverDocuments);
    const doc =
      own.get(serverId) ?? (await this.runner.load(FLEET_STREAM, serverDocuments)).get(serverId);
    if (!doc) throw notFound('No such server');
    return doc;
  }
}
