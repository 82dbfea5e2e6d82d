import { describe, it } from '@jest/globals';
import { ScheduledJobDefined, ScheduledJobRemoved } from '../../events/jobs.events.js';
import { given } from '../../storage/testing/given.js';
import { scheduledJobDecider as job } from './scheduled-job.decider.js';

const settings = {
  jobId: 'j-1',
  serviceId: 's-1',
  name: 'nightly-report',
  schedule: '0 3 * * *',
  timezone: 'UTC',
  composeService: 'api',
  command: ['sh', '-c', 'report'],
  timeLimitSeconds: 600,
  overlap: 'forbid' as const,
  enabled: true,
};
const defined = ScheduledJobDefined(settings);

describe('scheduled job decider', () => {
  it('Given nothing, When a job is defined, Then it is', () => {
    given(job).when({ kind: 'define', settings }).then(defined);
  });

  it('Given a job, When defined the same, Then nothing; changed, Then defined anew', () => {
    given(job, defined).when({ kind: 'define', settings }).thenNothing();
    given(job, defined)
      .when({ kind: 'define', settings: { ...settings, schedule: '0 4 * * *' } })
      .then(ScheduledJobDefined({ ...settings, schedule: '0 4 * * *' }));
  });

  it('Given a job, When it is moved to another service, Then it is refused', () => {
    given(job, defined)
      .when({ kind: 'define', settings: { ...settings, serviceId: 's-2' } })
      .thenRefused('CONFLICT', /stays with its service/);
  });

  it('Given a job, When removed, Then it is gone for good', () => {
    given(job, defined)
      .when({ kind: 'remove', jobId: 'j-1' })
      .then(ScheduledJobRemoved({ jobId: 'j-1', serviceId: 's-1' }));
    given(job, defined, ScheduledJobRemoved({ jobId: 'j-1', serviceId: 's-1' }))
      .when({ kind: 'define', settings })
      .thenRefused('NOT_FOUND', /No such scheduled job/);
    given(job)
      .when({ kind: 'remove', jobId: 'j-1' })
      .thenRefused('NOT_FOUND', /No such/);
  });
});
