import { IsBoolean, IsIn, IsInt, IsUUID, Matches, Max, Min } from 'class-validator';
import { PageCursor, PageLimit } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import type { JobOverlap } from '../../events/jobs.events.js';
import { ContainerCommand, CronSchedule, TimeZone } from '../deployment-fields.js';

export const JOB_OVERLAPS = ['forbid', 'allow', 'replace'] as const satisfies readonly JobOverlap[];

export class DefineScheduledJobInput {
  /** The job to change; left out, a new job is made and its id answered. */
  @Omittable()
  @IsUUID()
  jobId?: string;

  @IsUUID()
  serviceId!: string;

  /** `[a-z0-9-]`, 1-40: how people and logs name the job. */
  @Matches(/^[a-z0-9][a-z0-9-]{0,39}$/, {
    message: 'name is 1-40 lower-case letters, digits and -',
  })
  name!: string;

  /** Cron: `minute hour day-of-month month day-of-week`, or `@hourly`, `@daily`, ... */
  @CronSchedule()
  schedule!: string;

  /** The IANA time zone the schedule is read in; default UTC. */
  @TimeZone()
  timezone?: string;

  /** The compose service whose container runs the job; default the compose file's first. */
  @Omittable()
  @Matches(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$/, { message: 'composeService is a service name' })
  composeService?: string;

  /** The arguments run in a one-shot container of that service, e.g. `["sh", "-c", "..."]`. */
  @ContainerCommand()
  command!: string[];

  /** Seconds a run may take before it is stopped and failed; default 3600. */
  @Omittable()
  @IsInt()
  @Min(1)
  @Max(86_400)
  timeLimitSeconds?: number;

  /**
   * A run due while the last still runs: `forbid` (default) skips it, `allow` starts it beside,
   * `replace` stops the running one and starts it.
   */
  @Omittable()
  @IsIn(JOB_OVERLAPS)
  overlap?: JobOverlap;

  @Omittable()
  @IsBoolean()
  enabled?: boolean;
}

export class JobIdInput {
  @IsUUID()
  jobId!: string;
}

export class JobRunsInput {
  @IsUUID()
  jobId!: string;

  @PageLimit(100)
  limit?: number;

  @PageCursor()
  cursor?: string;
}

export class ServiceJobsInput {
  @IsUUID()
  serviceId!: string;
}
