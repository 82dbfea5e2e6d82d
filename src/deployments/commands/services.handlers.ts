import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsUUID, Matches } from 'class-validator';
import { AppError, badRequest } from '../../common/app-error.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { ServiceStreams } from '../service-streams.js';
import { ServerStreams } from '../server-streams.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { Omittable } from '../../common/omittable.js';
import { ComposeText, EnvironmentName, ImageRepository, SlugName } from '../deployment-fields.js';
import { EnvVarInput, ServiceSettingsInput } from './service-settings.input.js';
import { EnvList } from '../deployment-fields.js';
import { ServiceSettingsChecks } from './service-settings.checks.js';
import { assertServerInService, assertServiceActive } from '../lifecycle/lifecycle-rules.js';

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

/** A refusal decided before anything was stored (the name was taken): nothing to keep. */
const refusedUnstored = (error: unknown) => error instanceof AppError && error.code === 'CONFLICT';

/**
 * Registering (or moving to a server) attaches the service on the server's stream first, where
 * decommissioning is decided: of the two, one sees the other's event or conflicts and decides
 * again. Should the service's own write then be refused, the attachment is taken back; any
 * other failure leaves it, which only keeps the server from being decommissioned.
 */
@Injectable()
export class RegisterServiceHandler {
  constructor(
    private readonly services: ServiceStreams,
    private readonly servers: ServerStreams,
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
    };
    // A taken name is refused before the server records an attachment it would take back.
    await this.services.assertFree(input.name, input.environment);
    await this.servers.change({ kind: 'attachService', serverId: input.serverId, serviceId }, ctx);
    try {
      await this.services.register(event, ctx);
    } catch (error) {
      if (refusedUnstored(error))
        await this.servers.change(
          { kind: 'detachService', serverId: input.serverId, serviceId },
          ctx,
        );
      throw error;
    }
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

  /** Adds these variables, or changes those of the same name; the others stay. */
  @Omittable()
  @EnvList(() => EnvVarInput)
  setEnv?: EnvVarInput[];

  /** Removes the variables of these names (an unknown name changes nothing). */
  @Omittable()
  @IsArray()
  @ArrayMaxSize(200)
  @Matches(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, {
    each: true,
    message: 'env var names are letters, digits and _',
  })
  removeEnv?: string[];
}

@Injectable()
export class UpdateServiceHandler {
  constructor(
    private readonly services: ServiceStreams,
    private readonly servers: ServerStreams,
    private readonly lookup: DeploymentLookup,
    private readonly settings: ServiceSettingsChecks,
  ) {}

  async execute(
    input: UpdateServiceInput,
    ctx: RequestContext,
  ): Promise<{ serviceId: string; updated: string[] }> {
    const service = await this.lookup.service(input.serviceId);
    assertServiceActive(service);
    const server = await this.lookup.server(input.serverId ?? service.serverId);
    if (input.serverId !== undefined) assertServerInService(server);
    if (input.compose !== undefined) this.settings.validCompose(input.compose);
    // A new compose, or the same compose moved to a server that allows less.
    if (input.compose !== undefined || input.serverId !== undefined)
      this.settings.allowedOn(server, input.compose ?? service.compose);
    await this.settings.healthUrl(input.healthCheckUrl);
    const { serviceId, env, setEnv, removeEnv, ...rest } = input;
    if (env !== undefined && (setEnv !== undefined || removeEnv !== undefined)) {
      throw badRequest('Give env (the whole list) or setEnv/removeEnv (a change), not both', [
        { path: 'env', message: 'not with setEnv or removeEnv' },
      ]);
    }
    const changes: Record<string, unknown> = Object.fromEntries(
      Object.entries(rest).filter(([, v]) => v !== undefined),
    );
    if (env !== undefined) changes.env = this.settings.env(env);
    // Secrets are sealed as on registration; the decider applies the patch to the variables its
    // stream recorded and records the whole resulting list, so concurrent patches both land.
    const envPatch =
      setEnv !== undefined || removeEnv !== undefined
        ? { set: this.settings.env(setEnv), remove: removeEnv ?? [] }
        : undefined;
    const moving = input.serverId !== undefined && input.serverId !== service.serverId;
    if (moving)
      await this.servers.change({ kind: 'attachService', serverId: server.id, serviceId }, ctx);
    try {
      await this.services.update({ kind: 'update', event: { serviceId, changes }, envPatch }, ctx);
    } catch (error) {
      if (moving && refusedUnstored(error))
        await this.servers.change({ kind: 'detachService', serverId: server.id, serviceId }, ctx);
      throw error;
    }
    if (moving)
      await this.servers.change(
        { kind: 'detachService', serverId: service.serverId, serviceId },
        ctx,
      );
    const updated = Object.keys(changes);
    if (envPatch) updated.push('env');
    return { serviceId, updated: updated.sort() };
  }
}
