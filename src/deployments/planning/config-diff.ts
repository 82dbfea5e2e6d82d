import { AccessService, type AccessTarget } from '../../access/access.service.js';
import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import { createTwoFilesPatch } from 'diff';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import type { RecordedEnvVar } from '../../events/deployments.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { validateCompose } from '../compose.js';
import { judgingVariables } from '../compose-reading/compose-variables.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { sameSecretValue } from '../env-vars.js';
import { ok, plan, warn, type Plan } from './plan.js';

export interface EnvChange {
  name: string;
  change: 'added' | 'removed' | 'changed' | 'unchanged';
  secret: boolean;
}

/** Whether two secret values are the same, without revealing either. */
export type SameSecret = (a: RecordedEnvVar, b: RecordedEnvVar) => boolean;

/** Plain values compare as they are; secrets by `sameSecret`, never revealed. */
export function diffEnv(
  from: RecordedEnvVar[],
  to: RecordedEnvVar[],
  sameSecret: SameSecret,
): EnvChange[] {
  const names = [...new Set([...from.map((v) => v.name), ...to.map((v) => v.name)])].sort();
  return names.map((name) => {
    const a = from.find((v) => v.name === name);
    const b = to.find((v) => v.name === name);
    const secret = !!(a?.secretCiphertext || b?.secretCiphertext);
    if (!a) return { name, change: 'added', secret };
    if (!b) return { name, change: 'removed', secret };
    const same = secret
      ? !!a.secretCiphertext && !!b.secretCiphertext && sameSecret(a, b)
      : a.value === b.value;
    return { name, change: same ? 'unchanged' : 'changed', secret };
  });
}

/** Each compose service's image (what it builds as `<service> (built)`). */
function composeServices(snapshot: DeploymentDoc['snapshot']): Map<string, string> {
  const result = validateCompose(snapshot.compose, judgingVariables(snapshot.env));
  return new Map(
    result.ok ? result.summary.services.map((s) => [s.name, s.image ?? `${s.name} (built)`]) : [],
  );
}

/**
 * The compose files as a unified diff, or null when they are the same. The edit distance and
 * the time are bounded (a compose is up to 256 KiB): two files too different to diff cheaply
 * say so instead of holding the event loop.
 */
export function composeUnifiedDiff(from: string, to: string): string | null {
  if (from === to) return null;
  const patch = createTwoFilesPatch('compose (from)', 'compose (to)', from, to, '', '', {
    context: 3,
    maxEditLength: 2000,
    timeout: 100,
  });
  return patch ?? 'The compose files differ too much to show line by line.';
}

/** Field-by-field comparison of two frozen snapshots, as a plan whose command applies `to`. */
export function configDiff(from: DeploymentDoc, to: DeploymentDoc, sameSecret: SameSecret) {
  const env = diffEnv(from.snapshot.env, to.snapshot.env, sameSecret);
  const a = composeServices(from.snapshot);
  const b = composeServices(to.snapshot);
  const compose = {
    changed: from.snapshot.compose !== to.snapshot.compose,
    unified: composeUnifiedDiff(from.snapshot.compose, to.snapshot.compose),
    servicesAdded: [...b.keys()].filter((k) => !a.has(k)),
    servicesRemoved: [...a.keys()].filter((k) => !b.has(k)),
    imagesChanged: [...b.keys()]
      .filter((k) => a.has(k) && a.get(k) !== b.get(k))
      .map((k) => ({ service: k, from: a.get(k), to: b.get(k) })),
  };
  const diff = {
    image: { from: from.imageRef, to: to.imageRef, changed: from.imageRef !== to.imageRef },
    server: { from: from.serverId, to: to.serverId, changed: from.serverId !== to.serverId },
    env,
    compose,
  };
  const checks = [
    from.serviceId === to.serviceId
      ? ok('same-service', to.serviceName)
      : warn('same-service', 'the deployments belong to different services'),
    to.status === 'succeeded'
      ? ok('target-succeeded', `${to.id} succeeded`)
      : warn('target-succeeded', `${to.id} ${to.status}; it cannot be replayed`),
  ];
  const command =
    to.status === 'succeeded'
      ? `slipway rollback ${to.serviceId} ${to.id} --yes`
      : `slipway deployments show ${to.id}`;
  const result: Plan & { diff: typeof diff } = {
    ...plan(checks, ['replay the "to" snapshot on the service’s current server'], false, command),
    diff,
  };
  return result;
}

export type ConfigDiffPlan = ReturnType<typeof configDiff>;

export class ConfigDiffInput {
  @IsUUID()
  fromDeploymentId!: string;

  @IsUUID()
  toDeploymentId!: string;
}

export class ConfigDiff extends ProcedureQuery<ConfigDiffInput, ConfigDiffPlan> {}

/** Two deployments' frozen snapshots compared; secret values compared, never shown. */
/** Who may call configDiff: its declaration's rule, also applied to what else it touches. */
const CONFIG_DIFF = {
  roles: DEPLOYERS,
  scopes: ['deploy:plan'],
} as const satisfies Pick<AccessTarget, 'roles' | 'scopes'>;

@Procedure.planning(ConfigDiff, {
  name: 'configDiff',
  ...CONFIG_DIFF,
  input: ConfigDiffInput,
  description:
    'Field-by-field difference of two deployments’ frozen snapshots (secret values never shown).',
  project: { deployment: 'fromDeploymentId' },
})
export class ConfigDiffHandler implements IQueryHandler<ConfigDiff> {
  constructor(
    private readonly lookup: DeploymentLookup,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    private readonly access: AccessService,
  ) {}

  async execute({ input, ctx }: ConfigDiff): Promise<ConfigDiffPlan> {
    // Two deployments may be of different services: the second is judged in its project too.
    await this.access.alsoIn({ name: 'configDiff', ...CONFIG_DIFF }, ctx, {
      deployment: input.toDeploymentId,
    });
    return configDiff(
      await this.lookup.deployment(input.fromDeploymentId),
      await this.lookup.deployment(input.toDeploymentId),
      (a, b) => sameSecretValue(this.box, a, b),
    );
  }
}
