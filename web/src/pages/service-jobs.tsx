import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../api/access';
import { query } from '../api/client';
import { FormError } from '../components/form';
import { Loading } from '../components/page';
import { JobCard } from './service-job-card';
import { ServiceJobForm } from './service-job-form';
import { jobsOf, POLL_MS } from './service-job-types';

/** While nothing runs, the list is read again now and then (a scheduled run may have started). */
const IDLE_POLL_MS = 30_000;

/**
 * A service's scheduled jobs, a section of its card: each with its schedule, command and next and
 * last runs; run now, enabled or disabled, removed after a confirmation; its recent runs and their
 * output; and a form to add one. Controls the viewer may not use are not shown.
 */
export function ServiceJobs({ serviceId }: { serviceId: string }) {
  const can = useCan();
  const [adding, setAdding] = useState(false);
  const jobs = useQuery({
    queryKey: ['scheduledJobs', serviceId],
    queryFn: async () => jobsOf(await query('scheduledJobs', { serviceId })),
    refetchInterval: (q) =>
      q.state.data?.some((j) => j.running > 0 || j.lastRun?.status === 'running')
        ? POLL_MS
        : IDLE_POLL_MS,
  });
  const titleId = `jobs-${serviceId}`;
  const mayDefine = can('defineScheduledJob');
  return (
    <section className="jobs" aria-labelledby={titleId}>
      <div className="section-header">
        <h3 id={titleId}>Scheduled jobs</h3>
        {mayDefine && (
          <button
            type="button"
            className="button"
            aria-expanded={adding}
            onClick={() => setAdding(!adding)}
          >
            {adding ? 'Close the job form' : 'Add a job'}
          </button>
        )}
      </div>
      {adding && (
        <div className="job-form">
          <ServiceJobForm serviceId={serviceId} />
        </div>
      )}
      {jobs.isPending ? (
        <Loading what="scheduled jobs" />
      ) : jobs.isError ? (
        <FormError error={jobs.error} />
      ) : jobs.data.length === 0 ? (
        <p className="muted small">
          No scheduled job: a command run on a schedule in a one-shot container of the
          service&apos;s current deployment (migrations, reports, clean-ups)
          {mayDefine ? '.' : ', added by an operator, admin or owner.'}
        </p>
      ) : (
        jobs.data.map((j) => <JobCard key={j.jobId} job={j} />)
      )}
    </section>
  );
}
