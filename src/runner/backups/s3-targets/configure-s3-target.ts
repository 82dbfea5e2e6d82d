import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import { badRequest } from '../../../common/app-error.js';
import { httpsUrlOf } from '../../../common/https-url.js';
import { s3TargetDecider } from '../../../deployments/backup-schedules/s3-target.decider.js';
import { s3TargetStream } from '../../../events/backup-schedules.events.js';
import { Procedure } from '../../../kernel/procedure.js';
import { ProcedureCommand } from '../../../kernel/procedure-message.js';
import { ADMINS } from '../../../kernel/roles.js';
import { NotificationTargetPolicy } from '../../../notifications/target-policy.js';
import { SECRET_BOX } from '../../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../../secrets/secret-box.js';
import { DeciderRunner } from '../../../storage/decider-runner.js';
import { ConfigureS3TargetInput } from './s3-target.input.js';

/** Why `value` is not an S3 endpoint, or null: https, plain http on loopback only, no path. */
function endpointProblem(value: string): string | null {
  const url = httpsUrlOf(value);
  if (typeof url === 'string') return url;
  if (url.username || url.password || url.search || url.hash) {
    return 'must carry no credentials, query or fragment';
  }
  if (url.pathname !== '/' && url.pathname !== '') return 'must have no path';
  return null;
}

export class ConfigureS3Target extends ProcedureCommand<
  ConfigureS3TargetInput,
  { targetId: string; changed: boolean }
> {}

/** Where backups may be copied holds copies of customer data: owners and admins set it. */
@Procedure.command(ConfigureS3Target, {
  name: 'configureS3Target',
  roles: ADMINS,
  scopes: ['backup:write'],
  input: ConfigureS3TargetInput,
  description:
    'Adds or changes an S3 (or S3-compatible) bucket backups can be copied to: endpoint, region, bucket, key prefix and credentials; the secret access key is stored sealed and never returned.',
})
export class ConfigureS3TargetHandler implements ICommandHandler<ConfigureS3Target> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly policy: NotificationTargetPolicy,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute({ input, ctx }: ConfigureS3Target) {
    if (input.endpoint !== undefined) {
      const problem = endpointProblem(input.endpoint);
      if (problem)
        throw badRequest(`endpoint ${problem}`, [{ path: 'endpoint', message: problem }]);
      await this.policy.checkUrl(input.endpoint, 'endpoint');
    }
    const stream = s3TargetStream(input.targetId);
    const current = (await this.runner.load(stream, s3TargetDecider)).settings;
    const same =
      input.secretAccessKey !== undefined &&
      current !== null &&
      this.box.open(current.sealedSecretAccessKey) === input.secretAccessKey;
    const decision = await this.runner.run(
      stream,
      s3TargetDecider,
      {
        kind: 'configure',
        settings: {
          targetId: input.targetId,
          displayName: input.displayName,
          endpoint: input.endpoint?.replace(/\/$/, '') ?? null,
          region: input.region,
          bucket: input.bucket,
          prefix: input.prefix ?? '',
          accessKeyId: input.accessKeyId,
        },
        sealedSecretAccessKey:
          input.secretAccessKey === undefined || same ? null : this.box.seal(input.secretAccessKey),
      },
      ctx,
    );
    return { targetId: input.targetId, changed: decision.events.length > 0 };
  }
}
