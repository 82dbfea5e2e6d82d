import { AccessService, type AccessTarget } from '../../access/access.service.js';
import { randomUUID } from 'node:crypto';
import type { ICommandHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import { Omittable } from '../../common/omittable.js';
import { ProjectFacts } from '../../projects/project-facts.js';
import { ProjectId } from '../../projects/project.input.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { ServiceRegistrar } from '../service-registrar.js';
import { StreamFacts } from '../facts/stream-facts.js';
import { ComposeText, EnvironmentName, ImageRepository, SlugName } from '../deployment-fields.js';
import { ServiceSettingsInput } from './service-settings.input.js';
import { ServiceSettingsChecks } from './service-settings.checks.js';
import { assertServerInService } from '../lifecycle/lifecycle-rules.js';

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

  /** The project to place it in (absent: the default project). */
  @Omittable()
  @ProjectId()
  projectId?: string;
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

/** Who may call registerService: its declaration's rule, also applied to what else it touches. */
const REGISTER_SERVICE = {
  roles: DEPLOYERS,
  scopes: ['service:write'],
} as const satisfies Pick<AccessTarget, 'roles' | 'scopes'>;

/** Registering (or moving to a server) claims the stream of the name; see ServiceRegistrar. */
@Procedure.command(RegisterService, {
  name: 'registerService',
  ...REGISTER_SERVICE,
  input: RegisterServiceInput,
  description:
    'Registers a service: target server, image repository, validated compose, env vars (secrets sealed), approval rule.',
  project: { project: 'projectId' },
})
export class RegisterServiceHandler implements ICommandHandler<RegisterService> {
  constructor(
    private readonly registrar: ServiceRegistrar,
    private readonly facts: StreamFacts,
    private readonly settings: ServiceSettingsChecks,
    private readonly projects: ProjectFacts,
    private readonly access: AccessService,
  ) {}

  async execute({ input, ctx }: RegisterService): Promise<RegisteredServiceAnswer> {
    const server = await this.facts.server(input.serverId);
    // The server may be another project's: placing a service on it is judged there too.
    await this.access.alsoIn({ name: 'registerService', ...REGISTER_SERVICE }, ctx, {
      server: server.id,
    });
    assertServerInService(server);
    const env = input.env ?? [];
    this.settings.validCompose(input.compose, env);
    this.settings.allowedOn(server, input.compose, env);
    await this.settings.healthUrl(input.healthCheckUrl);
    const projectId = await this.projects.placeIn(input.projectId);
    const serviceId = randomUUID();
    const event = {
      serviceId,
      projectId,
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
      routes: this.settings.routes(input.routes ?? [], input.compose, env),
    };
    await this.registrar.register(event, ctx);
    return { serviceId, name: input.name, environment: input.environment };
  }
}
