import type { ICommandHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { conflict } from '../../common/app-error.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { ADMINS } from '../../kernel/roles.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { ServerStreams } from '../server-streams.js';

export class DecommissionServerInput {
  @IsUUID()
  serverId!: string;
}

export interface DecommissionServerAnswer {
  serverId: string;
  status: 'decommissioned';
  /** False when it was decommissioned already. */
  changed: boolean;
}

export class DecommissionServer extends ProcedureCommand<
  DecommissionServerInput,
  DecommissionServerAnswer
> {}

/**
 * Refused while a service that is not archived targets the server; the server stays, as a state.
 * Decided on the server's stream, where registrations and moves attach their service, so a
 * registration racing this one is either seen or conflicts. Services registered before attach
 * events existed are known only to the services read model: it is asked too.
 */
@Procedure.command(DecommissionServer, {
  name: 'decommissionServer',
  roles: ADMINS,
  scopes: ['server:write'],
  input: DecommissionServerInput,
  description:
    'Takes a server out of service (a state; its history stays): refused while a service that is not archived targets it; nothing is deployed to it afterwards.',
  project: { server: 'serverId' },
})
export class DecommissionServerHandler implements ICommandHandler<DecommissionServer> {
  constructor(
    private readonly servers: ServerStreams,
    private readonly lookup: DeploymentLookup,
  ) {}

  async execute({ input, ctx }: DecommissionServer): Promise<DecommissionServerAnswer> {
    await this.lookup.server(input.serverId);
    const services = (
      await this.lookup.reads
        .collection<ServiceDoc>('services')
        .find({ serverId: input.serverId }, { limit: 1000 })
    ).items;
    const targeting = services.filter((s) => s.status !== 'archived');
    if (targeting.length > 0) {
      throw conflict('Services still target this server: archive them or move them first', {
        serverId: input.serverId,
        services: targeting.slice(0, 20).map((s) => ({ serviceId: s.id, name: s.name })),
      });
    }
    // Archiving is final, so a read model that says archived cannot be undone by a later event:
    // it settles an attachment whose detachment was not written (a crash in between).
    const archived = services.filter((s) => s.status === 'archived').map((s) => s.id);
    const decision = await this.servers.change(
      { kind: 'decommission', serverId: input.serverId, archived },
      ctx,
    );
    return {
      serverId: input.serverId,
      status: 'decommissioned',
      changed: decision.events.length > 0,
    };
  }
}
