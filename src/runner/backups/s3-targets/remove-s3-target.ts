import { s3TargetDecider } from '../../../deployments/backup-schedules/s3-target.decider.js';
import { s3TargetStream } from '../../../events/backup-schedules.events.js';
import { Procedure } from '../../../kernel/procedure.js';
import { ProcedureCommand } from '../../../kernel/procedure-message.js';
import { ADMINS } from '../../../kernel/roles.js';
import { decides } from '../../../storage/deciding-handler.js';
import { S3TargetIdInput } from './s3-target.input.js';

export class RemoveS3Target extends ProcedureCommand<
  S3TargetIdInput,
  { targetId: string; removed: true }
> {}

@Procedure.command(RemoveS3Target, {
  name: 'removeS3Target',
  roles: ADMINS,
  scopes: ['backup:write'],
  input: S3TargetIdInput,
  description:
    'Removes an S3 target: no copy goes there any more (the copies there stay in the bucket).',
})
export class RemoveS3TargetHandler extends decides(s3TargetDecider).removes(
  RemoveS3Target,
  'targetId',
  s3TargetStream,
) {}
