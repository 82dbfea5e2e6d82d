import { AccessService, type AccessTarget } from '../../access/access.service.js';
import type { ICommandHandler } from '@nestjs/cqrs';
import { ArrayMaxSize, IsArray, IsUUID, Matches } from 'class-validator';
import { badRequest } from '../../common/app-error.js';
import {
  ServiceUpdated,
  type RecordedEnvVar,
  type ServiceRoute,
} from '../../events/deployments.events.js';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { assertMayChangeGuarded } from '../approval-rules.js';
import { ComposeText, EnvList, ImageRepository } from '../deployment-fields.js';
import { patchEnv } from '../env-patch.js';
import { StreamFacts } from '../facts/stream-facts.js';
import { assertServerInService, assertServiceActive } from '../lifecycle/lifecycle-rules.js';
import { ServerStreams } from '../server-streams.js';
import { ServiceStreams } from '../service-streams.js';
import { DomainClaims } from '../routes/domain-claims.js';
import { domainsOf } from '../routes/route-rules.js';
import { refusedUnstored } from '../service-registrar.js';
import { ServiceSettingsChecks } from './service-settings.checks.js';
import { EnvVarInput, ServiceSettingsInput } from './service-settings.input.js';

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

export class UpdateService extends ProcedureCommand<
  UpdateServiceInput,
  { serviceId: string; updated: string[] }
> {}

/**
 * Moving to another server attaches the service there first and detaches it from the old one
 * last, as registering does (see RegisterServiceHandler).
 */
/** Who may call updateService: its declaration's rule, also applied to what else it touches. */
const UPDATE_SERVICE = {
  roles: DEPLOYERS,
  scopes: ['service:write'],
} as const satisfies Pick<AccessTarget, 'roles' | 'scopes'>;

@Procedure.command(UpdateService, {
  name: 'updateService',
  ...UPDATE_SERVICE,
  input: UpdateServiceInput,
  description:
    'Changes fields of a service; later deployments use them, earlier snapshots stay frozen. A caller the service’s approval rule holds back may not weaken the rule or change its backup or restore command (403, `rule: "approval-rule"`).',
  project: { service: 'serviceId' },
})
export class UpdateServiceHandler implements ICommandHandler<UpdateService> {
  constructor(
    private readonly services: ServiceStreams,
    private readonly servers: ServerStreams,
    private readonly facts: StreamFacts,
    private readonly settings: ServiceSettingsChecks,
    private readonly domains: DomainClaims,
    private readonly access: AccessService,
  ) {}

  async execute({ input, ctx }: UpdateService): Promise<{ serviceId: string; updated: string[] }> {
    const service = await this.facts.service(input.serviceId);
    assertServiceActive(service);
    // Refused before anything is claimed; the decider judges it again on the stream it appends to.
    const { approvalRule, backupCommand, restoreCommand = null } = service;
    assertMayChangeGuarded({ approvalRule, backupCommand, restoreCommand }, input, ctx);
    const server = await this.facts.server(input.serverId ?? service.serverId);
    if (input.serverId !== undefined) {
      assertServerInService(server);
      // The new server may be another project's: moving onto it is judged there too.
      await this.access.alsoIn({ name: 'updateService', ...UPDATE_SERVICE }, ctx, {
        server: server.id,
      });
    }
    const { serviceId, env, setEnv, removeEnv, routes, ...rest } = input;
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
    // The compose is read with the variables it will run with: new ones change what it says.
    const variables =
      (changes.env as RecordedEnvVar[] | undefined) ??
      (envPatch ? patchEnv(service.env, envPatch) : service.env);
    const compose = input.compose ?? service.compose;
    const envChanged = env !== undefined || envPatch !== undefined;
    if (input.compose !== undefined || envChanged) this.settings.validCompose(compose, variables);
    // A new compose or new variables, or the same compose moved to a server that allows less.
    if (input.compose !== undefined || envChanged || input.serverId !== undefined)
      this.settings.allowedOn(server, compose, variables);
    await this.settings.healthUrl(input.healthCheckUrl);
    // New routes, or the routes kept with a new compose: they must fit the compose that runs.
    const before = service.routes ?? [];
    if (routes !== undefined || ((input.compose !== undefined || envChanged) && before.length))
      changes.routes = this.settings.routes(routes ?? before, compose, variables);
    const moving = input.serverId !== undefined && input.serverId !== service.serverId;
    // Domains the new routes add are claimed first; those they drop are released last, as the
    // service's stream decided them (a concurrent change may have named others meanwhile).
    const after = domainsOf((changes.routes as ServiceRoute[] | undefined) ?? before);
    const added = after.filter((d) => !domainsOf(before).includes(d));
    await this.domains.claim(serviceId, added, ctx);
    if (moving)
      await this.servers
        .change({ kind: 'attachService', serverId: server.id, serviceId }, ctx)
        .catch(async (error: unknown) => {
          await this.domains.release(serviceId, added, ctx);
          throw error;
        });
    let released: string[];
    try {
      const decision = await this.services.update(
        { kind: 'update', event: { serviceId, changes }, envPatch, by: ctx },
        ctx,
      );
      const recorded = decision.events.find((e) => e.type === ServiceUpdated.type);
      released = recorded ? (ServiceUpdated.dataOf(recorded).releasedDomains ?? []) : [];
    } catch (error) {
      if (refusedUnstored(error)) {
        if (moving)
          await this.servers.change({ kind: 'detachService', serverId: server.id, serviceId }, ctx);
        await this.domains.release(serviceId, added, ctx);
      }
      throw error;
    }
    await this.domains.release(serviceId, released, ctx);
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
