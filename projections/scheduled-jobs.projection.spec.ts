import { describe, it } from '@jest/globals';
import {
  JobRunFailed,
  JobRunSkipped,
  JobRunStarted,
  ScheduledJobDefined,
  ScheduledJobRemoved,
} from '../src/events/jobs.events.js';
import { scheduledJobsProjection } from './scheduled-jobs.projection.js';
import { at } from './testing/given-events.js';
import { givenProjection } from './testing/given-projection.js';

const settings = {
  jobId: 'j-1',
  serviceId: 's-1',
  name: 'report',
  schedule: '* * * * *',
  timezone: 'UTC',
  composeService: 'web',
  command: ['sh', '-c', 'report'],
  timeLimitSeconds: 60,
  overlap: 'forbid' as const,
  enabled: true,
};
const job = {
  id: 'j-1',
  serviceId: 's-1',
  name: 'report',
  schedule: '* * * * *',
  timezone: 'UTC',
  composeService: 'web',
  command: ['sh', '-c', 'report'],
  timeLimitSeconds: 60,
  overlap: 'forbid',
  enabled: true,
  definedAt: at(0),
  definedBy: null,
};
const started = JobRunStarted({
  runId: 'j-1@20261129T100100Z',
  jobId: 'j-1',
  serviceId: 's-1',
  deploymentId: 'd-1',
  trigger: 'schedule',
  scheduledFor: '2026-11-29T10:01:00.000Z',
  containerName: 'cron-production-job-report-abc',
});

describe('scheduled jobs projection', () => {
  it('Given a job run that started and failed, Then the job and the run say so', () => {
    givenProjection(scheduledJobsProjection)
      .given(
        ScheduledJobDefined(settings),
        started,
        JobRunFailed({
          runId: 'j-1@20261129T100100Z',
          jobId: 'j-1',
          serviceId: 's-1',
          reason: 'exit-code',
          exitCode: 3,
          detail: 'exited with code 3',
        }),
      )
      .then({
        scheduled_jobs: {
          'j-1': {
            ...job,
            lastScheduledFor: '2026-11-29T10:01:00.000Z',
            running: 0,
            lastRun: { runId: 'j-1@20261129T100100Z', status: 'failed', at: at(2) },
            removedAt: null,
          },
        },
        job_runs: {
          'j-1@20261129T100100Z': {
            id: 'j-1@20261129T100100Z',
            jobId: 'j-1',
            serviceId: 's-1',
            trigger: 'schedule',
            scheduledFor: '2026-11-29T10:01:00.000Z',
            deploymentId: 'd-1',
            containerName: 'cron-production-job-report-abc',
            status: 'failed',
            reason: 'exit-code',
            exitCode: 3,
            detail: 'exited with code 3',
            startedAt: at(1),
            finishedAt: at(2),
            startedBy: null,
          },
        },
      });
  });

  it('Given a skipped time and a removal, Then the skip is a run and the job stays, disabled', () => {
    givenProjection(scheduledJobsProjection)
      .given(
        ScheduledJobDefined(settings),
        started,
        JobRunSkipped({
          jobId: 'j-1',
          serviceId: 's-1',
          scheduledFor: '2026-11-29T10:02:00.000Z',
          reason: 'overlap',
        }),
        ScheduledJobRemoved({ jobId: 'j-1', serviceId: 's-1' }),
      )
      .then({
        scheduled_jobs: {
          'j-1': {
            ...job,
            enabled: false,
            lastScheduledFor: '2026-11-29T10:02:00.000Z',
            running: 1,
            lastRun: { runId: 'j-1@20261129T100200Z', status: 'skipped', at: at(2) },
            removedAt: at(3),
          },
        },
        job_runs: {
          'j-1@20261129T100100Z': {
            id: 'j-1@20261129T100100Z',
            jobId: 'j-1',
            serviceId: 's-1',
            trigger: 'schedule',
            scheduledFor: '2026-11-29T10:01:00.000Z',
            deploymentId: 'd-1',
            containerName: 'cron-production-job-report-abc',
            status: 'running',
            reason: null,
            exitCode: null,
            detail: null,
            startedAt: at(1),
            finishedAt: null,
            startedBy: null,
          },
          'j-1@20261129T100200Z': {
            id: 'j-1@20261129T100200Z',
            jobId: 'j-1',
            serviceId: 's-1',
            trigger: 'schedule',
            scheduledFor: '2026-11-29T10:02:00.000Z',
            deploymentId: null,
            containerName: null,
            status: 'skipped',
            reason: 'overlap',
            exitCode: null,
            detail: null,
            startedAt: at(2),
            finishedAt: at(2),
            startedBy: null,
          },
        },
      });
  });
});
