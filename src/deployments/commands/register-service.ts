import { randomUUID } from 'node:crypto';
import type { ICommandHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import { AppError } from '../../common/app-error.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { ServiceStreams } from '../service-streams.js';
import { ServerStreams } from '../server-streams.js';
import { StreamFacts } from '../facts/stream-facts.js';
import { ComposeText, EnvironmentName, ImageRepository, SlugName } from '../deployment-fields.js';
import { ServiceSettingsInput } from './service-settings.input.js';
import { ServiceSettingsChecks } from './service-settings.checks.js';
import { assertServerInService } from '../lifecycle/lifecycle-rules.js';
import { DomainClaims } from '../routes/domain-claims.js';
import { domainsOf } from '../routes/route-rules.js';

export class RegisterServiceInput extends ServiceSettingsInput {
  @SlugName()
  name!: string;

  @EnvironmentName()
  environment!: string;

  @IsUUID()
  serverId!: string;

  @ImageRepository()
  imageRepository!: string;

  @ComposeText()
  compose!: string;
}

export interface RegisteredServiceAnswer {
  serviceId: string;
  name: string;
  environment: string;
}

export class RegisterService extends ProcedureCommand<
  RegisterServiceInput,
  RegisteredServiceAnswer
> {}

/**
 * A refusal decided before anything was stored (the name was taken): nothing to keep, so an
 * attachment made for it on the server's stream is taken back.
 */
export const refusedUnstored = (error: unknown) =>
  error instanceof AppError && error.code === 'CONFLICT';

/**
 * Registering (or moving to a server) attaches the service on the server's stream first, where
 * decommissioning is decided: of the two, one sees the other's event or conflicts and decides
 * again. Should the service's own write then be refused, the attachment is taken back; any
 * other failure leaves it, which only keeps the server from being decommissioned.
 */
@Procedure.command(RegisterService, {
  name: 'registerService',
  roles: DEPLOYERS,
  scopes: ['service:write'],
  input: RegisterServiceInput,
  description:
    'Registers a service: target server, image repository, validated compose, env vars (secrets sealed), approval rule.',
})
export class RegisterServiceHandler implements ICommandHandler<RegisterService> {
  constructor(
    private readonly services: ServiceStreams,
    private readonly servers: ServerStreams,
    private readonly facts: StreamFacts,
    private readonly settings: ServiceSettingsChecks,
    private readonly domains: DomainClaims,
  ) {}

  async execute({ input, ctx }: RegisterService): Promise<RegisteredServiceAnswer> {
    const server = await this.facts.server(input.serverId);
    assertServerInService(server);
    this.settings.validCompose(input.compose);
    this.settings.allowedOn(server, input.compose);
    await this.settings.healthUrl(input.healthCheckUrl);
    const serviceId = randomUUID();
    const event = {
      serviceId,
      name: input.name,
      environment: input.environment,
      serverId: input.serverId,
      imageRepository: input.imageRepository,
      compose: input.compose,
      env: this.settings.env(input.env),
      approvalRule: input.approvalRule ?? 'none',
      healthCheckUrl: input.healthCheckUrl ?? null,
      backupCommand: input.backupCommand ?? null,
      restoreCommand: input.restoreCommand ?? null,
      routes: this.settings.routes(input.routes ?? [], input.compose),
    };
    // A taken name is refused before the server records an attachment it would take back.
    await this.services.assertFree(input.name, input.environment);
    const domains = domainsOf(event.routes);
    await this.domains.claim(serviceId, domains, ctx);
    try {
      await this.servers.change(
        { kind: 'attachService', serverId: input.serverId, serviceId },
        ctx,
      );
    } catch (error) {
      await this.domains.release(serviceId, domains, ctx);
      throw error;
    }
    try {
      await this.services.register(event, ctx);
    } catch (error) {
      if (refusedUnstored(error)) {
        await this.servers.change(
          { kind: 'detachService', serverId: input.serverId, serviceId },
          ctx,
        );
        await this.domains.release(serviceId, domains, ctx);
      }
      throw error;
    }
    return { serviceId, name: input.name, environment: input.environment };
  }
}
