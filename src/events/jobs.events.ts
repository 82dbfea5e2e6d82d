import { defineEvent } from '../eventstore/define-event.js';

/**
 * What happens when a run comes due while the job's last run still runs: `forbid` skips the new
 * one (recorded), `allow` starts it beside the other, `replace` stops the running one (failed,
 * `replaced`) and starts the new one.
 */
export type JobOverlap = 'forbid' | 'allow' | 'replace';

/** A service's scheduled job, as defined (whole, every time). */
export type ScheduledJobSettings = {
  jobId: string;
  serviceId: string;
  name: string;
  /** A cron expression (five fields, or six with seconds first; `@daily` and the like). */
  schedule: string;
  /** The IANA time zone the schedule is read in. */
  timezone: string;
  /** The compose service whose container the job runs in (a one-shot container of it). */
  composeService: string;
  /** The argument vector run in that container, instead of its command. */
  command: string[];
  timeLimitSeconds: number;
  overlap: JobOverlap;
  enabled: boolean;
};

/** Stream `scheduled-job-<jobId>`. */
export const ScheduledJobDefined = defineEvent<ScheduledJobSettings>('ScheduledJobDefined', 1);

export const ScheduledJobRemoved = defineEvent<{ jobId: string; serviceId: string }>(
  'ScheduledJobRemoved',
  1,
);

/** What started a run: its schedule (for the time it was due) or a person or agent, now. */
export type JobRunTrigger = 'schedule' | 'manual';

/**
 * Stream `job-run-<runId>`, claimed by this first event (a run of a scheduled time has the id
 * `<jobId>@<time>`, so two schedulers never start it twice). `deploymentId`: the deployment
 * whose frozen snapshot (compose file, variables, image) the run uses.
 */
export const JobRunStarted = defineEvent<{
  runId: string;
  jobId: string;
  serviceId: string;
  deploymentId: string;
  trigger: JobRunTrigger;
  /** The scheduled time the run is for; null for a manual run. */
  scheduledFor: string | null;
  containerName: string;
}>('JobRunStarted', 1);

export const JobRunSucceeded = defineEvent<{ runId: string; jobId: string; serviceId: string }>(
  'JobRunSucceeded',
  1,
);

/**
 * Why a run failed: its exit code, its time limit, it could not start, or nothing finished it
 * (its runner stopped) well after its time limit.
 */
export type JobRunFailure =
  'exit-code' | 'timed-out' | 'could-not-start' | 'abandoned' | 'replaced';

export const JobRunFailed = defineEvent<{
  runId: string;
  jobId: string;
  serviceId: string;
  reason: JobRunFailure;
  exitCode: number | null;
  detail: string;
}>('JobRunFailed', 1);

/**
 * Stream `job-run-<jobId>@<time>` too, instead of a start: the run due then was not started
 * (`overlap: forbid` and the last run still running, or no deployment to run from).
 */
export const JobRunSkipped = defineEvent<{
  jobId: string;
  serviceId: string;
  scheduledFor: string;
  reason: 'overlap' | 'no-deployment';
}>('JobRunSkipped', 1);

export const scheduledJobStream = (jobId: string) => `scheduled-job-${jobId}`;
export const jobRunStream = (runId: string) => `job-run-${runId}`;
/** The id of the run a job's schedule makes due at `time` (whole seconds, UTC). */
export const scheduledRunId = (jobId: string, time: Date) =>
  `${jobId}@${time.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
