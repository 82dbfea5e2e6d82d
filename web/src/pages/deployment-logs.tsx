import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnswerOf } from '../api/answers';
import { query } from '../api/client';
import { FormError } from '../components/form';
import { EmptyState, Loading } from '../components/page';
import { useLogStream } from '../live/log-stream';

type LogLine = AnswerOf<'deploymentLogs'>['lines'][number];
interface LogState {
  lines: LogLine[];
  after: number;
}

const POLL_MS = 2_000;
/** Lines kept in the page; older ones are dropped from view (the CLI has them all). */
const MAX_LINES = 20_000;

/**
 * The log so far, then only the lines after it on every poll, while the deployment runs. One
 * query per deployment: other parts of the page that read the log (`enabled` when they need it)
 * share its lines and its requests.
 */
export function useLogs(deploymentId: string, live: boolean, enabled = true) {
  const queryClient = useQueryClient();
  const key = ['deploymentLogs', deploymentId];
  return useQuery({
    queryKey: key,
    queryFn: async (): Promise<LogState> => {
      const before = queryClient.getQueryData<LogState>(key) ?? { lines: [], after: 0 };
      const lines = [...before.lines];
      let after = before.after;
      for (let pages = 0; pages < 20; pages++) {
        const page = await query('deploymentLogs', { deploymentId, afterLine: after, limit: 1000 });
        lines.push(...page.lines);
        after = page.nextAfterLine;
        if (!page.more) break;
      }
      return { lines: lines.slice(-MAX_LINES), after };
    },
    refetchInterval: live ? POLL_MS : false,
    enabled,
  });
}

function LogLines({
  lines,
}: {
  lines: { line: number; step: string; stream: string; text: string }[];
}) {
  return (
    <pre className="log" role="log" aria-label="Deployment log" aria-live="polite" tabIndex={0}>
      {lines.map((l) => (
        <span key={l.line} className={l.stream === 'stderr' ? 'log-line stderr' : 'log-line'}>
          <span className="log-step">{l.step}</span> {l.text}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

function NoOutput({ live }: { live: boolean }) {
  return (
    <EmptyState title="No output yet.">
      <p>
        {live
          ? 'Lines appear here as the runner writes them.'
          : 'The runner recorded no output for this deployment.'}
      </p>
    </EmptyState>
  );
}

/** A finished deployment's log, or a running one's when the stream is not available: polled. */
function PolledLogs({ deploymentId, live }: { deploymentId: string; live: boolean }) {
  const logs = useLogs(deploymentId, live);
  if (logs.isPending) return <Loading what="the log" />;
  if (logs.isError) return <FormError error={logs.error} />;
  if (logs.data.lines.length === 0) return <NoOutput live={live} />;
  return <LogLines lines={logs.data.lines} />;
}

/**
 * The log: while the deployment runs, followed line by line over the log stream (no reload, no
 * polling); afterwards, or where the stream is unavailable, read with `deploymentLogs`.
 */
export function Logs({ deploymentId, live }: { deploymentId: string; live: boolean }) {
  const stream = useLogStream(deploymentId, live, MAX_LINES);
  if (!live || stream.mode === 'unavailable') {
    return <PolledLogs deploymentId={deploymentId} live={live} />;
  }
  return (
    <>
      <p className="muted small" role="status">
        {stream.mode === 'connecting'
          ? 'Connecting to the log…'
          : stream.mode === 'ended'
            ? `The deployment ended: ${stream.status}.`
            : 'Following the log as it is written.'}
      </p>
      {stream.lines.length === 0 ? <NoOutput live /> : <LogLines lines={stream.lines} />}
    </>
  );
}
