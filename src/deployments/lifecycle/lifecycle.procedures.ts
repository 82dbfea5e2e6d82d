import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../kernel/request-context.js';
import { LegacyProcedure as Procedure } from '../../kernel/procedure.js';
import { ADMINS, DEPLOYERS, EVERYONE } from '../../kernel/roles.js';
import {
  CatalogQueries,
  ServerIdInput,
  ServersInput,
  ServiceIdInput,
  ServicesInput,
} from '../queries/catalog-queries.js';
import {
  DecommissionServerHandler,
  DecommissionServerInput,
  UpdateServerHandler,
  UpdateServerInput,
} from './server-lifecycle.handlers.js';

/** Servers after registration (changes, decommissioning) and the lists and details of both. */
@Injectable()
export class LifecycleProcedures {
  constructor(
    private readonly updateServerHandler: UpdateServerHandler,
    private readonly decommissionServerHandler: DecommissionServerHandler,
    private readonly catalog: CatalogQueries,
  ) {}

  @Procedure.command({
    name: 'updateServer',
    roles: DEPLOYERS,
    scopes: ['server:write'],
    input: UpdateServerInput,
    description:
      'Changes a server’s labels, SSH user, port or private key (sealed, never returned); a new hostKeyFingerprint is pinned and the server is pending-host-key until approveServerHostKey repeats it.',
  })
  updateServer(input: UpdateServerInput, ctx: RequestContext) {
    return this.updateServerHandler.execute(input, ctx);
  }

  @Procedure.command({
    name: 'decommissionServer',
    roles: ADMINS,
    scopes: ['server:write'],
    input: DecommissionServerInput,
    description:
      'Takes a server out of service (a state; its history stays): refused while a service that is not archived targets it; nothing is deployed to it afterwards.',
  })
  decommissionServer(input: DecommissionServerInput, ctx: RequestContext) {
    return this.decommissionServerHandler.execute(input, ctx);
  }

  @Procedure.read({
    name: 'services',
    roles: EVERYONE,
    scopes: ['service:read'],
    input: ServicesInput,
    description:
      'Services oldest first (limit 1-100, default 20, cursor; serverId?, status active|archived); secret env values masked.',
  })
  services(input: ServicesInput) {
    return this.catalog.services(input);
  }

  @Procedure.read({
    name: 'serviceDetails',
    roles: EVERYONE,
    scopes: ['service:read'],
    input: ServiceIdInput,
    description:
      'One service: settings (secret env values masked), compose, server, its five latest deployments and how many backups it has.',
  })
  serviceDetails(input: ServiceIdInput) {
    return this.catalog.serviceDetails(input);
  }

  @Procedure.read({
    name: 'servers',
    roles: EVERYONE,
    scopes: ['server:read'],
    input: ServersInput,
    description:
      'Servers oldest first (limit 1-100, default 20, cursor; status pending-host-key|ready|decommissioned); never a key.',
  })
  servers(input: ServersInput) {
    return this.catalog.servers(input);
  }

  @Procedure.read({
    name: 'serverDetails',
    roles: EVERYONE,
    scopes: ['server:read'],
    input: ServerIdInput,
    description:
      'One server: connection settings (never its key), status, last check and its services.',
  })
  serverDetails(input: ServerIdInput) {
    return this.catalog.serverDetails(input);
  }
}
