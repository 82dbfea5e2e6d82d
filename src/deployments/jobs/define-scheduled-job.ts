import { randomUUID } from 'node:crypto';
import type { ICommandHandler } from '@nestjs/cqrs';
import { badRequest } from '../../common/app-error.js';
import { scheduledJobStream } from '../../events/jobs.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { validateCompose } from '../compose.js';
import { StreamFacts } from '../facts/stream-facts.js';
import { assertServiceActive } from '../lifecycle/lifecycle-rules.js';
import { scheduleProblem } from './cron-schedule.js';
import { DefineScheduledJobInput } from './job.input.js';
import { scheduledJobDecider } from './scheduled-job.decider.js';

export class DefineScheduledJob extends ProcedureCommand<
  DefineScheduledJobInput,
  { jobId: string; changed: boolean }
> {}

/** The compose services of the service's compose file, or null when it cannot be read here. */
function composeServices(compose: string): string[] | null {
  const read = validateCompose(compose);
  return read.ok ? read.summary.services.map((s) => s.name) : null;
}

/**
 * A job's command runs on its schedule as the system, in the service's container: defining one
 * starts commands as a deploy does, so it takes `deploy:start` as well as `service:write`.
 */
@Procedure.command(DefineScheduledJob, {
  name: 'defineScheduledJob',
  roles: DEPLOYERS,
  scopes: ['service:write', 'deploy:start'],
  input: DefineScheduledJobInput,
  description:
    'Adds or changes a scheduled job of a service: a cron schedule (time zone, overlap policy, time limit) that runs a command in a one-shot container of the service’s current deployment on its server. A caller the service’s approval rule holds back may change when a job runs, not what it runs (403, `rule: "approval-rule"`).',
  project: { service: 'serviceId' },
})
export class DefineScheduledJobHandler implements ICommandHandler<DefineScheduledJob> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly facts: StreamFacts,
  ) {}

  async execute({ input, ctx }: DefineScheduledJob) {
    const timezone = input.timezone ?? 'UTC';
    const problem = await scheduleProblem(input.schedule, timezone);
    if (problem) throw badRequest(problem, [{ path: 'schedule', message: problem }]);
    // From the service's own stream: its rule decides who may choose the command.
    const service = await this.facts.service(input.serviceId);
    assertServiceActive(service);
    const names = composeServices(service.compose);
    const composeService = input.composeService ?? names?.[0];
    if (!composeService) {
      throw badRequest('name the compose service the job runs in', [
        { path: 'composeService', message: 'required: the compose file could not be read' },
      ]);
    }
    if (names && !names.includes(composeService)) {
      throw badRequest(`the compose file has no service ${composeService}`, [
        { path: 'composeService', message: `one of: ${names.join(', ')}` },
      ]);
    }
    const jobId = input.jobId ?? randomUUID();
    const decision = await this.runner.run(
      scheduledJobStream(jobId),
      scheduledJobDecider,
      {
        kind: 'define',
        settings: {
          jobId,
          serviceId: service.id,
          name: input.name,
          schedule: input.schedule,
          timezone,
          composeService,
          command: input.command,
          timeLimitSeconds: input.timeLimitSeconds ?? 3600,
          overlap: input.overlap ?? 'forbid',
          enabled: input.enabled ?? true,
        },
        by: ctx,
        rule: service.approvalRule,
      },
      ctx,
    );
    return { jobId, changed: decision.events.length > 0 };
  }
}
