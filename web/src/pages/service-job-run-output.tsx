import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { AnswerOf } from '../api/answers';
import { query } from '../api/client';
import { FormError } from '../components/form';
import { Loading } from '../components/page';
import { exactTime } from '../components/time';
import { POLL_MS, type Run } from './service-job-types';

type OutputLine = AnswerOf<'jobRunLogs'>['lines'][number];
interface OutputState {
  lines: OutputLine[];
  after: number;
}

/** Output lines kept in the page, as for a deployment's log. */
const MAX_LINES = 20_000;

/**
 * A run's output: what was read so far, then only the lines after it on every poll while the run
 * runs, and once more when it ends (the last lines written before the end).
 */
export function RunOutput({ jobId, run }: { jobId: string; run: Run }) {
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
