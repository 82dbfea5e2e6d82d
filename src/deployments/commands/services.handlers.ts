import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { IsUUID } from 'class-validator';
import type { RequestContext } from '../../kernel/request-context.js';
import { ServiceStreams } from '../service-streams.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { Omittable } from '../../common/omittable.js';
import { ComposeText, EnvironmentName, ImageRepository, SlugName } from '../deployment-fields.js';
import { ServiceSettingsInput } from './service-settings.input.js';
import { ServiceSettingsChecks } from './service-settings.checks.js';

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
    private readonly settings: ServiceSettingsChecks,
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
    private readonly settings: ServiceSettingsChecks,
  ) {}

  async execute(
    input: UpdateServiceInput,
    ctx: RequestContext,
  ): Promise<{ serviceId: string; updated: string[] }> {
    const service = await this.lookup.service(input.serviceId);
    const server = await this.lookup.server(input.serverId ?? service.serverId);
    if (input.compose !== undefined) this.settings.validCompose(input.compose);
    // A new compose, or the same compose moved to a server that allows less.
    if (input.compose !== undefined || input.serverId !== undefined)
      this.settings.allowedOn(server, input.compose ?? service.compose);
    await this.settings.healthUrl(input.healthCheckUrl);
    const { serviceId, env, ...rest } = input;
    const changes: Record<string, unknown> = Object.fromEntries(
      Object.entries(rest).filter(([, v]) => v !== undefined),
    );
    if (env !== undefined) changes.env = this.settings.env(env);
    await this.services.update({ kind: 'update', event: { serviceId, changes } }, ctx);
    return { serviceId, updated: Object.keys(changes).sort() };
  }
}
