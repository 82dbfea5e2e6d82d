import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../api/access';
import { mutate } from '../api/client';
import { Confirm } from '../components/confirm';
import { Done } from '../components/fields';
import { FormError } from '../components/form';
import { StatusBadge } from '../components/status';
import { NextRun, When } from '../components/time';
import { JobRuns } from './service-job-runs';
import type { Job } from './service-job-types';

const OVERLAP: Record<Job['overlap'], string> = {
  forbid: 'skip a run due while the last one runs',
  allow: 'start it beside the running one',
  replace: 'stop the running one and start the new one',
};

function seconds(total: number): string {
  if (total < 60 || total % 60 !== 0) return `${total} s`;
  if (total < 3600 || total % 3600 !== 0) return `${total / 60} min`;
  return `${total / 3600} h`;
}

/** The settings of a job as `defineScheduledJob` takes them (it is defined whole each time). */
function settingsOf(job: Job) {
  return {
    jobId: job.jobId,
    serviceId: job.serviceId,
    name: job.name,
    schedule: job.schedule,
    timezone: job.timezone,
    composeService: job.composeService,
    command: job.command,
    timeLimitSeconds: job.timeLimitSeconds,
    overlap: job.overlap,
    enabled: job.enabled,
  };
}

/**
 * One scheduled job: its schedule, command, next and last runs; run now, enable or disable, remove
 * after a confirmation; and its recent runs, opened on demand.
 */
export function JobCard({ job }: { job: Job }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [runsOpen, setRunsOpen] = useState(false);
  const [awaiting, setAwaiting] = useState<string | null>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['scheduledJobs', job.serviceId] });
    void queryClient.invalidateQueries({ queryKey: ['jobRuns', job.jobId] });
  };
  const run = useMutation({
    mutationFn: () => mutate('runScheduledJob', { jobId: job.jobId }),
    onSuccess: ({ runId }) => {
      setAwaiting(runId);
      setRunsOpen(true);
      refresh();
    },
  });
  // Defined whole: the job as it is with `enabled` flipped.
  const toggle = useMutation({
    mutationFn: () => mutate('defineScheduledJob', { ...settingsOf(job), enabled: !job.enabled }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => mutate('removeScheduledJob', { jobId: job.jobId }),
    onSuccess: refresh,
  });
  const { name } = job;
  const mayRun = can('runScheduledJob');
  const mayDefine = can('defineScheduledJob');
  const mayRemove = can('removeScheduledJob');
  const runsId = `job-runs-${job.jobId}`;
  return (
    <section className="job" aria-label={name}>
      <div className="card-header">
        <h4>{name}</h4>
        <span className="job-badges">
          {job.running > 0 && <StatusBadge status="running" />}
          <StatusBadge status={job.enabled ? 'enabled' : 'disabled'} />
        </span>
      </div>
      <dl className="facts">
        <div>
          <dt>Schedule</dt>
          <dd>
            <code>{job.schedule}</code> <span className="muted">in</span> {job.timezone}
          </dd>
        </div>
        <div>
          <dt>Compose service</dt>
          <dd>
            <code>{job.composeService}</code>
          </dd>
        </div>
        <div>
          <dt>Next run</dt>
          <dd>
            <NextRun at={job.nextRunAt} />
          </dd>
        </div>
        <div>
          <dt>Last run</dt>
          <dd>
            {job.lastRun === null ? (
              <span className="muted">never</span>
            ) : (
              <>
                <StatusBadge status={job.lastRun.status} /> <When at={job.lastRun.at} />
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>Time limit</dt>
          <dd>{seconds(job.timeLimitSeconds)}</dd>
        </div>
        <div>
          <dt>Overlap</dt>
          <dd>{OVERLAP[job.overlap]}</dd>
        </div>
        <div className="fact-wide">
          <dt>Command</dt>
          <dd>
            <pre className="code-block job-command">
              <code>{job.command.join(' ')}</code>
            </pre>
          </dd>
        </div>
      </dl>
      {asking ? (
        <Confirm
          question={`Remove ${name}?`}
          note="It runs no more; its runs stay on record."
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
          onKeep={() => setAsking(false)}
        >
          Yes, remove {name}
        </Confirm>
      ) : (
        <div className="button-row">
          {mayRun && (
            <button
              type="button"
              className="button primary"
              disabled={run.isPending}
              onClick={() => run.mutate()}
            >
              Run now
            </button>
          )}
          {can('jobRuns') && (
            <button
              type="button"
              className="button"
              aria-expanded={runsOpen}
              aria-controls={runsOpen ? runsId : undefined}
              onClick={() => setRunsOpen(!runsOpen)}
            >
              {runsOpen ? 'Hide the runs' : 'Recent runs'}
            </button>
          )}
          {mayDefine && (
            <button
              type="button"
              className="button"
              disabled={toggle.isPending}
              onClick={() => toggle.mutate()}
            >
              {job.enabled ? `Disable ${name}` : `Enable ${name}`}
            </button>
          )}
          {mayRemove && (
            <button type="button" className="button danger" onClick={() => setAsking(true)}>
              Remove {name}…
            </button>
          )}
        </div>
      )}
      {run.data && (
        <Done>
          <p>Run started: it shows in the runs below.</p>
        </Done>
      )}
      <FormError error={run.error ?? toggle.error ?? remove.error} />
      {runsOpen && (
        <div className="job-runs" id={runsId}>
          <JobRuns job={job} awaiting={awaiting} />
        </div>
      )}
    </section>
  );
}
