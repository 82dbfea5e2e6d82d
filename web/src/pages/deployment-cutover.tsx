import type { AnswerOf } from '../api/answers';
import { duration, exactTime } from '../components/time';
import { useLogs } from './deployment-logs';

type Details = AnswerOf<'deploymentDetails'>;
type Step = Details['steps'][number];

/** The steps before the switch: a failure among them removes the new containers. */
const BEFORE_SWITCH = ['start-new', 'health-new', 'probe-new'];

/** What a failure of each step before the switch means. */
const FAILURES: Record<string, string> = {
  'start-new': 'the new containers did not start',
  'health-new': 'the new containers did not become healthy',
  'probe-new': 'the new containers did not answer over HTTP as they should',
};

/** What each step of the cutover does, as the phase a running deployment is in. */
const PHASES: Record<string, string> = {
  'start-new': 'starting the new containers beside the old ones',
  'health-new': 'waiting for the new containers to be healthy',
  'probe-new': 'asking the new containers over HTTP',
  switch: 'switching the edge proxy to the new containers',
  drain: 'waiting for requests in flight to the old containers',
  retire: 'retiring the old containers',
};

/** The last run of a step (a step runs once per deployment; the last is the one that counts). */
function stepOf(d: Details, name: string): Step | undefined {
  return d.steps.findLast((s) => s.step === name);
}

/** The cutover step the deployment reached last, from the order it ran them in. */
function lastPhase(d: Details): Step | undefined {
  return d.steps.findLast((s) => Object.hasOwn(PHASES, s.step));
}

function LogLines({ lines }: { lines: string[] }) {
  if (!lines.length) return null;
  return (
    <ul className="cutover-lines" aria-label="The switch, from the log">
      {lines.map((text, i) => (
        <li key={i}>
          <code>{text}</code>
        </li>
      ))}
    </ul>
  );
}

/** When the old containers were retired, or where retiring stands. */
function retired(d: Details, live: boolean): string {
  const retire = stepOf(d, 'retire');
  if (!retire) return live ? 'not yet: after the drain' : 'not retired';
  if (retire.ok === true) return exactTime(retire.finishedAt);
  if (retire.ok === false)
    return `retiring failed${retire.detail ? ` (${retire.detail})` : ''}; the new version serves`;
  return live ? 'retiring them now' : 'not retired';
}

function Switched({ d, live, lines }: { d: Details; live: boolean; lines: string[] }) {
  const health = stepOf(d, 'health-new');
  const probe = stepOf(d, 'probe-new');
  const switched = stepOf(d, 'switch')!;
  const drain = stepOf(d, 'drain');
  return (
    <>
      <p>
        <strong>Traffic switched to the new containers</strong> at {exactTime(switched.finishedAt)}.
      </p>
      <dl className="facts">
        {health?.finishedAt && (
          <div>
            <dt>From healthy to switched</dt>
            <dd>
              {duration(health.finishedAt, switched.finishedAt)}
              {probe && (
                <span className="muted">
                  {' '}
                  (probe {duration(probe.startedAt, probe.finishedAt)})
                </span>
              )}
            </dd>
          </div>
        )}
        <div>
          <dt>Drain</dt>
          <dd>
            {!drain
              ? '—'
              : drain.finishedAt
                ? `${duration(drain.startedAt, drain.finishedAt)} for requests in flight`
                : `waiting for requests in flight (${duration(drain.startedAt, null)} so far)`}
          </dd>
        </div>
        <div>
          <dt>Old containers retired</dt>
          <dd>{retired(d, live)}</dd>
        </div>
      </dl>
      <LogLines lines={lines} />
    </>
  );
}

/** Where a deployment that never switched stopped: the failed step and what it means, or the cancel. */
function stoppedAt(d: Details): string {
  const reached = d.steps.findLast((s) => BEFORE_SWITCH.includes(s.step));
  if (d.status !== 'failed') {
    if (!reached) return 'It was cancelled.';
    return `It was cancelled ${reached.finishedAt ? 'after' : 'during'} ${reached.step}.`;
  }
  const failed = d.failedStep ?? d.steps.findLast((s) => s.ok === false)?.step ?? reached?.step;
  if (!failed) return 'It failed.';
  return Object.hasOwn(FAILURES, failed)
    ? `It failed at ${failed}: ${FAILURES[failed]}.`
    : `It failed at ${failed}.`;
}

function NeverServed({ d, removal }: { d: Details; removal: 'removed' | 'failed' | 'unknown' }) {
  return (
    <>
      <p>
        <strong>The new version never took traffic</strong>:{' '}
        {removal === 'failed'
          ? 'the old containers kept serving, but removing the new ones failed (see remove-new in the log).'
          : 'the old containers kept serving and the new ones were removed.'}
      </p>
      <p className="muted">{stoppedAt(d)}</p>
    </>
  );
}

function Running({ d }: { d: Details }) {
  const phase = lastPhase(d);
  return (
    <>
      <p>
        <strong>Before the switch</strong>: the old containers serve until the edge proxy switches
        to the new ones.
      </p>
      <p role="status">
        Now: {phase ? PHASES[phase.step] : 'starting'}
        {d.cancelRequested && '; cancelling, the new containers will be removed'}.
      </p>
    </>
  );
}

function SwitchUnfinished({ live }: { live: boolean }) {
  return live ? (
    <p role="status">Now: {PHASES.switch}.</p>
  ) : (
    <p>
      <strong>The switch did not complete</strong>: nothing was removed. The old containers serve
      until the edge proxy takes the new ones, which were left running.
    </p>
  );
}

/**
 * How a gapless deployment moved traffic from the old containers to the new ones: when the edge
 * proxy switched and how long after the new ones were healthy, the drain and the retiring of the
 * old ones; or, when it stopped before the switch, that the new version never served. Shown
 * only for deployments that started new containers beside the old (`start-new`). The proxy's
 * lines come from the log the page already reads once the deployment has ended.
 */
export function Cutover({ d, live }: { d: Details; live: boolean }) {
  const started = stepOf(d, 'start-new');
  const switched = stepOf(d, 'switch');
  const logs = useLogs(d.id, false, started !== undefined && !live);
  if (!started) return null;
  const log = logs.data?.lines ?? [];
  const switchLines = log.filter((l) => l.step === 'switch').map((l) => l.text);
  const removal = !logs.data
    ? 'unknown'
    : log.some((l) => l.step === 'remove-new' && l.stream === 'stderr')
      ? 'failed'
      : 'removed';
  return (
    <section className="card" aria-labelledby="cutover-title">
      <h2 id="cutover-title">Cutover</h2>
      {switched?.ok === true ? (
        <Switched d={d} live={live} lines={switchLines} />
      ) : switched ? (
        <SwitchUnfinished live={live} />
      ) : live ? (
        <Running d={d} />
      ) : (
        <NeverServed d={d} removal={removal} />
      )}
    </section>
  );
}
