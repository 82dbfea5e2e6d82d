import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { IsUUID } from 'class-validator';
import type { RequestContext } from '../../kernel/request-context.js';
import { badRequest } from '../../common/app-error.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { ServiceStreams } from '../service-streams.js';
import { validateCompose } from '../compose.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { Omittable } from '../../common/omittable.js';
import { ComposeText, EnvironmentName, ImageRepository, SlugName } from '../deployment-fields.js';
import { ServiceSettingsInput } from './service-settings.input.js';
import { ComposePolicyGuard } from '../compose-policy/compose-policy.guard.js';
import { recordEnv } from '../env-vars.js';
import { AddressGate } from '../reach/address-gate.js';
import { healthUrlShapeProblem } from '../reach/health-check-url.js';

function checkCompose(compose: string): void {
  const result = validateCompose(compose);
  if (!result.ok) throw badRequest('The compose definition is invalid', result.issues);
}

/** Only http(s), to a host the server address policy allows (checked again when probed). */
async function checkHealthUrl(gate: AddressGate, url: string | undefined): Promise<void> {
  if (url === undefined) return;
  const problem = healthUrlShapeProblem(url) ?? (await gate.refusal(new URL(url).hostname));
  if (problem)
    throw badRequest('The health check URL is refused', [
      { path: 'healthCheckUrl', message: problem },
    ]);
}

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

@Injectable()
export class RegisterServiceHandler {
  constructor(
    private readonly services: ServiceStreams,
    private readonly lookup: DeploymentLookup,
    private readonly gate: AddressGate,
    private readonly policy: ComposePolicyGuard,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute(
    input: RegisterServiceInput,
    ctx: RequestContext,
  ): Promise<{
    serviceId: string;
    name: string;
    environment: string;
  }> {
    const server = await this.lookup.server(input.serverId);
    checkCompose(input.compose);
    this.policy.enforce(input.compose, server);
    await checkHealthUrl(this.gate, input.healthCheckUrl);
    const serviceId = randomUUID();
    const event = {
      serviceId,
      name: input.name,
      environment: input.environment,
      serverId: input.serverId,
      imageRepository: input.imageRepository,
      compose: input.compose,
      env: recordEnv(input.env, this.box),
      approvalRule: input.approvalRule ?? 'none',
      healthCheckUrl: input.healthCheckUrl ?? null,
      backupCommand: input.backupCommand ?? null,
    };
    await this.services.register(event, ctx);
    return { serviceId, name: input.name, environment: input.environment };
  }
}

export class UpdateServiceInput extends ServiceSettingsInput {
  @IsUUID()
  serviceId!: string;

  @Omittable()
  @IsUUID()
  serverId?: string;

  @Omittable()
  @ImageRepository()
  imageRepository?: string;

  @Omittable()
  @ComposeText()
  compose?: string;
}

@Injectable()
export class UpdateServiceHandler {
  constructor(
    private readonly services: ServiceStreams,
    private readonly lookup: DeploymentLookup,
    private readonly gate: AddressGate,
    private readonly policy: ComposePolicyGuard,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute(
    input: UpdateServiceInput,
    ctx: RequestContext,
  ): Promise<{ serviceId: string; updated: string[] }> {
    const service = await this.lookup.service(input.serviceId);
    const server = await this.lookup.server(input.serverId ?? service.serverId);
    if (input.compose !== undefined) checkCompose(input.compose);
    // A new compose, or the same compose moved to a server that allows less.
    if (input.compose !== undefined || input.serverId !== undefined)
      this.policy.enforce(input.compose ?? service.compose, server);
    await checkHealthUrl(this.gate, input.healthCheckUrl);
    const { serviceId, env, ...rest } = input;
    const changes: Record<string, unknown> = Object.fromEntries(
      Object.entries(rest).filter(([, v]) => v !== undefined),
    );
    if (env !== undefined) changes.env = recordEnv(env, this.box);
    await this.services.update({ kind: 'update', event: { serviceId, changes } }, ctx);
    return { serviceId, updated: Object.keys(changes).sort() };
  }
}
