import { scheduledJobStream } from '../../events/jobs.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { decides } from '../../storage/deciding-handler.js';
import { JobIdInput } from './job.input.js';
import { scheduledJobDecider } from './scheduled-job.decider.js';

export class RemoveScheduledJob extends ProcedureCommand<
  JobIdInput,
  { jobId: string; removed: true }
> {}

@Procedure.command(RemoveScheduledJob, {
  name: 'removeScheduledJob',
  roles: DEPLOYERS,
  scopes: ['service:write'],
  input: JobIdInput,
  description: 'Removes a scheduled job: it runs no more; its runs stay on record.',
  project: { job: 'jobId' },
})
export class RemoveScheduledJobHandler extends decides(scheduledJobDecider).removes(
  RemoveScheduledJob,
  'jobId',
  scheduledJobStream,
) {}
