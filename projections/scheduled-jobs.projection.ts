import {
  JobRunFailed,
  JobRunSkipped,
  JobRunStarted,
  JobRunSucceeded,
  ScheduledJobDefined,
  ScheduledJobRemoved,
  scheduledRunId,
  type JobRunFailure,
  type JobRunTrigger,
  type ScheduledJobSettings,
} from '../src/events/jobs.events.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection, type TypedHandler } from './projection.js';

export type JobRunOutcome = 'running' | 'succeeded' | 'failed' | 'skipped';

/** The last run of a job, as its list shows it. */
export interface LastJobRun {
  runId: string;
  status: JobRunOutcome;
  at: string;
}

/**
 * `scheduled_jobs`: `{id (the job id), serviceId, name, schedule, timezone, composeService,
 * command, timeLimitSeconds, overlap, enabled, definedAt, definedBy, lastScheduledFor (the
 * latest scheduled time claimed, started or skipped), running (runs not finished), lastRun,
 * removedAt}`. A removed job keeps its document (disabled, `removedAt` set): its runs stay on
 * record and are judged in its service's project.
 */
export interface ScheduledJobDoc extends Omit<ScheduledJobSettings, 'jobId'>, Doc {
  definedAt: string;
  definedBy: string | null;
  lastScheduledFor: string | null;
  running: number;
  lastRun: LastJobRun | null;
  removedAt: string | null;
}

/**
 * `job_runs`: `{id (the run id), jobId, serviceId, trigger, scheduledFor, deploymentId,
 * containerName, status, reason, exitCode, detail, startedAt, finishedAt, startedBy}`; a skipped
 * scheduled time is a run of status `skipped` (never started).
 */
export interface JobRunDoc extends Doc {
  jobId: string;
  serviceId: string;
  trigger: JobRunTrigger;
  scheduledFor: string | null;
  deploymentId: string | null;
  containerName: string | null;
  status: JobRunOutcome;
  reason: JobRunFailure | 'overlap' | 'no-deployment' | null;
  exitCode: number | null;
  detail: string | null;
  startedAt: string;
  finishedAt: string | null;
  startedBy: string | null;
}

const byJob = (e: { data: { jobId: string } }) => e.data.jobId;
const byRun = (e: { data: { runId: string } }) => e.data.runId;

/** The job's document after one of its runs changed; unchanged when the job is gone. */
function withRun(
  job: ScheduledJobDoc | null,
  run: LastJobRun,
  running: number,
  scheduledFor: string | null = null,
): ScheduledJobDoc | null {
  if (!job) return null;
  const later =
    scheduledFor && (!job.lastScheduledFor || scheduledFor > job.lastScheduledFor)
      ? scheduledFor
      : job.lastScheduledFor;
  return {
    ...job,
    lastRun: run,
    running: Math.max(0, job.running + running),
    lastScheduledFor: later,
  };
}

/** The end of a run: the job's last run and count of running ones, and the run's own document. */
function finished<D extends { runId: string; jobId: string }>(
  status: 'succeeded' | 'failed',
  fields: (data: D) => Partial<JobRunDoc>,
): TypedHandler<D, ScheduledJobDoc | JobRunDoc>[] {
  return [
    {
      collection: 'scheduled_jobs',
      documentId: byJob,
      evolve: (job, { data, recordedAt }) =>
        withRun(job as ScheduledJobDoc | null, { runId: data.runId, status, at: recordedAt }, -1),
    },
    {
      collection: 'job_runs',
      documentId: byRun,
      evolve: (run, { data, recordedAt }) =>
        run && { ...(run as JobRunDoc), status, ...fields(data), finishedAt: recordedAt },
    },
  ];
}

export const scheduledJobsProjection: Projection = {
  name: 'scheduled_jobs',
  version: 1,
  collections: [
    { name: 'scheduled_jobs', indexes: [{ fields: ['serviceId'] }] },
    { name: 'job_runs', indexes: [{ fields: ['jobId', 'startedAt'] }] },
  ],
  handlers: handlersOf(
    on<EventDataOf<typeof ScheduledJobDefined>, ScheduledJobDoc>(ScheduledJobDefined, {
      collection: 'scheduled_jobs',
      documentId: byJob,
      evolve: (current, { data, metadata, recordedAt }) => ({
        id: data.jobId,
        serviceId: data.serviceId,
        name: data.name,
        schedule: data.schedule,
        timezone: data.timezone,
        composeService: data.composeService,
        command: data.command,
        timeLimitSeconds: data.timeLimitSeconds,
        overlap: data.overlap,
        enabled: data.enabled,
        definedAt: recordedAt,
        definedBy: metadata.actor.principalId,
        lastScheduledFor: current?.lastScheduledFor ?? null,
        running: current?.running ?? 0,
        lastRun: current?.lastRun ?? null,
        removedAt: null,
      }),
    }),
    on<EventDataOf<typeof ScheduledJobRemoved>, ScheduledJobDoc>(ScheduledJobRemoved, {
      collection: 'scheduled_jobs',
      documentId: byJob,
      evolve: (job, { recordedAt }) => job && { ...job, enabled: false, removedAt: recordedAt },
    }),
    on<EventDataOf<typeof JobRunStarted>, ScheduledJobDoc | JobRunDoc>(
      JobRunStarted,
      {
        collection: 'scheduled_jobs',
        documentId: byJob,
        evolve: (job, { data, recordedAt }) =>
          withRun(
            job as ScheduledJobDoc | null,
            { runId: data.runId, status: 'running', at: recordedAt },
            1,
            data.scheduledFor,
          ),
      },
      {
        collection: 'job_runs',
        documentId: byRun,
        evolve: (_c, { data, metadata, recordedAt }) => ({
          id: data.runId,
          jobId: data.jobId,
          serviceId: data.serviceId,
          trigger: data.trigger,
          scheduledFor: data.scheduledFor,
          deploymentId: data.deploymentId,
          containerName: data.containerName,
          status: 'running',
          reason: null,
          exitCode: null,
          detail: null,
          startedAt: recordedAt,
          finishedAt: null,
          startedBy: metadata.actor.principalId,
        }),
      },
    ),
    on<EventDataOf<typeof JobRunSkipped>, ScheduledJobDoc | JobRunDoc>(
      JobRunSkipped,
      {
        collection: 'scheduled_jobs',
        documentId: byJob,
        evolve: (job, { data, recordedAt }) => {
          const runId = scheduledRunId(data.jobId, new Date(data.scheduledFor));
          return withRun(
            job as ScheduledJobDoc | null,
            { runId, status: 'skipped', at: recordedAt },
            0,
            data.scheduledFor,
          );
        },
      },
      {
        collection: 'job_runs',
        documentId: (e) => scheduledRunId(e.data.jobId, new Date(e.data.scheduledFor)),
        evolve: (_c, { data, recordedAt }) => ({
          id: scheduledRunId(data.jobId, new Date(data.scheduledFor)),
          jobId: data.jobId,
          serviceId: data.serviceId,
          trigger: 'schedule',
          scheduledFor: data.scheduledFor,
          deploymentId: null,
          containerName: null,
          status: 'skipped',
          reason: data.reason,
          exitCode: null,
          detail: null,
          startedAt: recordedAt,
          finishedAt: recordedAt,
          startedBy: null,
        }),
      },
    ),
    on<EventDataOf<typeof JobRunSucceeded>, ScheduledJobDoc | JobRunDoc>(
      JobRunSucceeded,
      ...finished<EventDataOf<typeof JobRunSucceeded>>('succeeded', () => ({ exitCode: 0 })),
    ),
    on<EventDataOf<typeof JobRunFailed>, ScheduledJobDoc | JobRunDoc>(
      JobRunFailed,
      ...finished<EventDataOf<typeof JobRunFailed>>('failed', ({ reason, exitCode, detail }) => ({
        reason,
        exitCode,
        detail,
      })),
    ),
  ),
};
