import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { AnswerOf } from '../api/answers';
import { useCan } from '../api/access';
import { mutate, query } from '../api/client';
import { Done } from '../components/fields';
import { FormError } from '../components/form';
import { Loading } from '../components/page';
import { StatusBadge } from '../components/status';
import { duration, exactTime, When } from '../components/time';
import { ServiceJobForm } from './service-job-form';
import { jobsOf, runsOf, type Job, type Run } from './service-job-types';

type OutputLine = AnswerOf<'jobRunLogs'>['lines'][number];
interface OutputState {
  lines: OutputLine[];
  after: number;
}

/** While something runs: the lists are read again this often. */
const POLL_MS = 2_000;
/** Otherwise the job list is read again now and then (a scheduled run may have started). */
const IDLE_POLL_MS = 30_000;
const RUNS_SHOWN = 10;
/** Output lines kept in the page, as for a deployment's log. */
const MAX_LINES = 20_000;

const REASONS: Record<NonNullable<Run['reason']>, string> = {
  'exit-code': 'the command exited with an error',
  'timed-out': 'stopped at its time limit',
  'could-not-start': 'could not start',
  abandoned: 'abandoned: its runner stopped',
  replaced: 'stopped: a newer run replaced it',
  overlap: 'skipped: the last run still ran',
  'no-deployment': 'skipped: no succeeded deployment to run from',
};

/** Why a run failed or was skipped: its one-line detail, or the reason in words. */
function why(run: Run): string {
  if (run.reason === null) return '—';
  if (run.detail === null) return REASONS[run.reason];
  return run.reason === 'could-not-start' ? `could not start: ${run.detail}` : run.detail;
}

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
 * A run's output: what was read so far, then only the lines after it on every poll while the run
 * runs, and once more when it ends (the last lines written before the end).
 */
function RunOutput({ jobId, run }: { jobId: string; run: Run }) {
  const queryClient = useQueryClient();
  const live = run.status === 'running';
  const key = ['jobRunLogs', jobId, run.runId];
  const output = useQuery({
    queryKey: key,
    queryFn: async (): Promise<OutputState> => {
      const before = queryClient.getQueryData<OutputState>(key) ?? { lines: [], after: 0 };
      const lines = [...before.lines];
      let after = before.after;
      for (let pages = 0; pages < 20; pages++) {
        const page = await query('jobRunLogs', {
          jobId,
          runId: run.runId,
          afterLine: after,
          limit: 1000,
        });
        lines.push(...page.lines);
        after = page.nextAfterLine;
        if (!page.more) break;
      }
      return { lines: lines.slice(-MAX_LINES), after };
    },
    refetchInterval: live ? POLL_MS : false,
  });
  // The run ended while shown: its last lines, once.
  const { refetch } = output;
  const wasLive = useRef(live);
  useEffect(() => {
    if (wasLive.current && !live) void refetch();
    wasLive.current = live;
  }, [live, refetch]);
  const label = `Output of the run started ${exactTime(run.startedAt)}`;
  return (
    <div className="job-output">
      <h5>{label}</h5>
      {output.isPending ? (
        <Loading what="the output" />
      ) : output.isError ? (
        <FormError error={output.error} />
      ) : output.data.lines.length === 0 ? (
        <p className="muted">
          {live ? 'No output yet: lines appear here as the command writes them.' : 'No output.'}
        </p>
      ) : (
        // Text only (React escapes it): what a command prints is never read as markup.
        <pre className="log" role="log" aria-label={label} aria-live="polite" tabIndex={0}>
          {output.data.lines.map((l) => (
            <span key={l.line} className={l.stream === 'stderr' ? 'log-line stderr' : 'log-line'}>
              {l.text}
              {'\n'}
            </span>
          ))}
        </pre>
      )}
    </div>
  );
}

/** Whether the list of runs has yet to show what the job's own summary says of its last run. */
function behind(job: Job, runs: Run[]): boolean {
  const last = job.lastRun;
  if (last === null) return false;
  const listed = runs.find((r) => r.runId === last.runId);
  if (listed) return listed.status !== last.status;
  return runs.length === 0 || Date.parse(last.at) > Date.parse(runs[0].startedAt);
}

/** The job's recent runs, newest first, and the output of the one picked. */
function JobRuns({ job, awaiting }: { job: Job; awaiting: string | null }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [shown, setShown] = useState<string | null>(null);
  const runs = useQuery({
    queryKey: ['jobRuns', job.jobId],
    queryFn: async () => runsOf(await query('jobRuns', { jobId: job.jobId, limit: RUNS_SHOWN })),
    refetchInterval: (q) => {
      const list = q.state.data;
      if (!list) return false;
      const waiting =
        job.running > 0 ||
        list.some((r) => r.status === 'running') ||
        (awaiting !== null && !list.some((r) => r.runId === awaiting)) ||
        behind(job, list);
      return waiting ? POLL_MS : false;
    },
  });
  // A run the list sees start or end before the job's summary does: read the summary again.
  const newest = runs.data?.[0];
  const newestState = newest ? `${newest.runId}:${newest.status}` : '';
  const summaryState = job.lastRun ? `${job.lastRun.runId}:${job.lastRun.status}` : '';
  useEffect(() => {
    if (newestState !== '' && newestState !== summaryState) {
      void queryClient.invalidateQueries({ queryKey: ['scheduledJobs', job.serviceId] });
    }
  }, [newestState, summaryState, job.serviceId, queryClient]);

  if (runs.isPending) return <Loading what="runs" />;
  if (runs.isError) return <FormError error={runs.error} />;
  const list = runs.data;
  if (list.length === 0) {
    return <p className="muted">{awaiting ? 'The run is starting…' : 'No run yet.'}</p>;
  }
  const picked = list.find((r) => r.runId === shown) ?? null;
  return (
    <>
      <div className="table-scroll">
        <table className="table compact stack" aria-label={`Runs of ${job.name}`}>
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Trigger</th>
              <th scope="col">Started</th>
              <th scope="col">Took</th>
              <th scope="col">Exit code</th>
              <th scope="col">Why</th>
              {can('jobRunLogs') && (
                <th scope="col">
                  <span className="visually-hidden">Output</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {list.map((r) => (
              <tr key={r.runId} aria-current={r.runId === shown || undefined}>
                <td data-label="Status">
                  <StatusBadge status={r.status} />
                </td>
                <td data-label="Trigger">
                  {r.trigger === 'manual' ? (
                    'manual'
                  ) : (
                    <span title={`due ${exactTime(r.scheduledFor)}`}>schedule</span>
                  )}
                </td>
                <td data-label="Started">
                  <When at={r.startedAt} />
                </td>
                <td data-label="Took">
                  {r.status === 'skipped' ? (
                    '—'
                  ) : (
                    <span title={r.finishedAt ? `ended ${exactTime(r.finishedAt)}` : 'running'}>
                      {duration(r.startedAt, r.finishedAt)}
                      {r.finishedAt === null && ' so far'}
                    </span>
                  )}
                </td>
                <td data-label="Exit code">{r.exitCode ?? '—'}</td>
                <td data-label="Why" className="detail">
                  {why(r)}
                </td>
                {can('jobRunLogs') && (
                  <td data-label="Output">
                    {r.status !== 'skipped' && (
                      <button
                        type="button"
                        className="link-button"
                        aria-expanded={r.runId === shown}
                        onClick={() => setShown(r.runId === shown ? null : r.runId)}
                      >
                        {r.runId === shown ? 'Hide output' : 'Show output'}
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {picked && <RunOutput key={picked.runId} jobId={job.jobId} run={picked} />}
    </>
  );
}

function JobCard({ job }: { job: Job }) {
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
            {job.nextRunAt === null ? (
              <span className="muted">none: disabled</span>
            ) : (
              <>
                <When at={job.nextRunAt} />
                <br />
                <span className="muted small">{exactTime(job.nextRunAt)}</span>
              </>
            )}
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
        <div className="button-row" role="group" aria-label={`Remove ${name}?`}>
          <span className="confirm-text">It runs no more; its runs stay on record.</span>
          <button
            type="button"
            className="button danger"
            disabled={remove.isPending}
            onClick={() => remove.mutate()}
          >
            Yes, remove {name}
          </button>
          <button type="button" className="button" onClick={() => setAsking(false)}>
            Keep it
          </button>
        </div>
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
