import { IsBoolean, IsUUID } from 'class-validator';
import type { ICommandHandler } from '@nestjs/cqrs';
import { Omittable } from '../../common/omittable.js';
import { StreamFacts } from '../../deployments/facts/stream-facts.js';
import { ServerStreams } from '../../deployments/server-streams.js';
import { ServiceStreams } from '../../deployments/service-streams.js';
import { DomainClaims } from '../../deployments/routes/domain-claims.js';
import { domainsOf } from '../../deployments/routes/route-rules.js';
import { ServiceComposeDownRan } from '../../events/lifecycle.events.js';
import { serviceDeploymentsStream, serviceStream } from '../../events/deployments.events.js';
import { serviceDeploymentsDecider } from '../../deployments/service-deployments.decider.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { OPERATORS } from '../../kernel/roles.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { EventWriter } from '../../storage/event-writer.js';
import { composeProject } from '../../deployments/compose-project.js';
import { ServerSessions } from '../server-sessions.js';

export class ArchiveServiceInput {
  @IsUUID()
  serviceId!: string;

  /** Also run `docker compose down` for the service's project on its server, over SSH. */
  @Omittable()
  @IsBoolean()
  composeDown?: boolean;
}

export interface ComposeDownOutcome {
  ok: boolean;
  exitCode: number | null;
  failure: string | null;
}

export interface ArchivedService {
  serviceId: string;
  status: 'archived';
  /** False when the service was already archived. */
  changed: boolean;
  composeDown: ComposeDownOutcome | null;
}

export class ArchiveService extends ProcedureCommand<ArchiveServiceInput, ArchivedService> {}

/**
 * Archiving is a state: the service and its history stay, new deployments and changes are
 * refused. Refused while a deployment is queued or running (cancel it first), as the service's
 * deployments stream knows it (not a read model, which may lag a trigger). With
 * `composeDown`, the containers are stopped afterwards; that outcome is recorded and answered,
 * and a failure there does not undo the archiving.
 */
@Procedure.command(ArchiveService, {
  name: 'archiveService',
  roles: OPERATORS,
  scopes: ['service:write'],
  input: ArchiveServiceInput,
  description:
    'Archives a service (a state; its history stays): new deployments and changes are refused. Refused while a deployment is queued or running. composeDown: also runs docker compose down for it on its server over SSH (outcome recorded and answered).',
  project: { service: 'serviceId' },
})
export class ArchiveServiceHandler implements ICommandHandler<ArchiveService> {
  constructor(
    private readonly services: ServiceStreams,
    private readonly facts: StreamFacts,
    private readonly sessions: ServerSessions,
    private readonly writer: EventWriter,
    private readonly runner: DeciderRunner,
    private readonly servers: ServerStreams,
    private readonly domains: DomainClaims,
  ) {}

  async execute({ input, ctx }: ArchiveService): Promise<ArchivedService> {
    const service = await this.facts.service(input.serviceId);
    // Decided on the deployments stream, where triggers and starts are: a trigger racing this
    // either lands first (and the close is refused) or finds the queue closed. Closing comes
    // first so that an archived service never has an open queue; archiving again repeats both.
    await this.runner.run(
      serviceDeploymentsStream(service.id),
      serviceDeploymentsDecider,
      { kind: 'close', serviceId: service.id },
      ctx,
      50,
    );
    const composeDown = input.composeDown ?? false;
    const decision = await this.services.update(
      { kind: 'archive', event: { serviceId: service.id, composeDown } },
      ctx,
    );
    // Its domains are free for another service; its server's edge stops routing them.
    await this.domains.release(service.id, domainsOf(service.routes), ctx);
    // The server may be decommissioned once this service no longer holds it.
    await this.servers.change(
      { kind: 'detachService', serverId: service.serverId, serviceId: service.id },
      ctx,
    );
    let down: ComposeDownOutcome | null = null;
    if (composeDown) {
      down = await this.composeDown(
        service.serverId,
        composeProject(service.name, service.environment),
      );
      await this.writer.append(
        serviceStream(service.environment, service.name),
        [ServiceComposeDownRan({ serviceId: service.id, serverId: service.serverId, ...down })],
        'any',
        ctx,
      );
    }
    return {
      serviceId: service.id,
      status: 'archived',
      changed: decision.events.length > 0,
      composeDown: down,
    };
  }

  private async composeDown(serverId: string, project: string): Promise<ComposeDownOutcome> {
    const server = await this.facts.server(serverId);
    if (!server.hostKeyApproved)
      return { ok: false, exitCode: null, failure: 'host key not approved' };
    try {
      const session = await this.sessions.open(server);
      try {
        const result = await session.exec(
          ['docker', 'compose', '--project-name', project, 'down'],
          { onLine: () => undefined },
        );
        return {
          ok: result.code === 0,
          exitCode: result.code,
          failure: result.code === 0 ? null : `exit ${result.code ?? result.signal}`,
        };
      } finally {
        session.close();
      }
    } catch {
      // The cause stays out of the answer and the event, as for deployments' connect step.
      return { ok: false, exitCode: null, failure: 'could not connect to the server' };
    }
  }
}
