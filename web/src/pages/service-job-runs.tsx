import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useCan } from '../api/access';
import { query } from '../api/client';
import { FormError } from '../components/form';
import { Loading } from '../components/page';
import { StatusBadge } from '../components/status';
import { duration, exactTime, When } from '../components/time';
import { RunOutput } from './service-job-run-output';
import { POLL_MS, runsOf, type Job, type Run } from './service-job-types';

const RUNS_SHOWN = 10;

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

/** Whether the list of runs has yet to show what the job's own summary says of its last run. */
function behind(job: Job, runs: Run[]): boolean {
  const last = job.lastRun;
  if (last === null) return false;
  const listed = runs.find((r) => r.runId === last.runId);
  if (listed) return listed.status !== last.status;
  return runs.length === 0 || Date.parse(last.at) > Date.parse(runs[0].startedAt);
}

/** The job's recent runs, newest first, and the output of the one picked. */
export function JobRuns({ job, awaiting }: { job: Job; awaiting: string | null }) {
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
