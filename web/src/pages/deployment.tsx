import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'wouter';
import type { AnswerOf } from '../api/answers';
import { query } from '../api/client';
import { ApiError } from '../api/errors';
import { FormError } from '../components/form';
import { EmptyState, Loading, Page } from '../components/page';
import { StatusBadge } from '../components/status';
import { duration, exactTime, When } from '../components/time';
import { requester, triggerText } from '../components/words';
import { CancelDeployment, RollBack } from './deployment-actions';
import { Cutover } from './deployment-cutover';
import { Logs } from './deployment-logs';

type Details = AnswerOf<'deploymentDetails'>;

const LIVE = new Set(['queued', 'running']);
const POLL_MS = 2_000;

function stepResult(step: Details['steps'][number]): string {
  if (step.ok === true) return 'succeeded';
  if (step.ok === false) return 'failed';
  return step.finishedAt === null ? 'running' : 'cancelled';
}

function Facts({ d }: { d: Details }) {
  return (
    <dl className="facts">
      <div>
        <dt>Status</dt>
        <dd>
          <StatusBadge status={d.status} />
          {d.cancelRequested && d.status === 'running' && (
            <span className="muted"> cancelling</span>
          )}
        </dd>
      </div>
      <div>
        <dt>Image</dt>
        <dd>
          <code className="image">{d.imageRef}</code>
          {d.imageDigest && (
            <>
              <br />
              <code className="muted small">{d.imageDigest}</code>
            </>
          )}
        </dd>
      </div>
      {d.snapshot.git && <Commit git={d.snapshot.git} />}
      <div>
        <dt>Requested</dt>
        <dd>
          <When at={d.createdAt} /> by {requester(d.requestedBy)}
          {triggerText(d.trigger) && `, ${triggerText(d.trigger)}`}
        </dd>
      </div>
      <div>
        <dt>Started</dt>
        <dd>{exactTime(d.startedAt)}</dd>
      </div>
      <div>
        <dt>Finished</dt>
        <dd>{exactTime(d.finishedAt)}</dd>
      </div>
      <div>
        <dt>Took</dt>
        <dd>{d.startedAt ? duration(d.startedAt, d.finishedAt) : '—'}</dd>
      </div>
      {d.queue.position !== null && (
        <div>
          <dt>In the queue</dt>
          <dd>
            position {d.queue.position} ({d.queue.ahead.length} ahead on this service)
          </dd>
        </div>
      )}
      {d.rollbackOf && (
        <div>
          <dt>Rolls back</dt>
          <dd>
            <Link href={`/deployments/${d.rollbackOf}`}>the earlier deployment</Link>
          </dd>
        </div>
      )}
    </dl>
  );
}

/** Which commit the deployment builds and runs, as the push said it. */
function Commit({ git }: { git: NonNullable<Details['snapshot']['git']> }) {
  const refName = git.ref?.replace(/^refs\/(heads|tags)\//, '');
  return (
    <div>
      <dt>Commit</dt>
      <dd>
        <code title={git.commit}>{git.commit.slice(0, 12)}</code>
        {refName && (
          <>
            {' '}
            on <code>{refName}</code>
          </>
        )}
        {git.message && (
          <>
            <br />
            {git.message}
          </>
        )}
        <br />
        <span className="muted small">
          {git.author ? `by ${git.author}, ` : ''}from {git.repository}
        </span>
      </dd>
    </div>
  );
}

function Steps({ d }: { d: Details }) {
  if (d.steps.length === 0) {
    return (
      <EmptyState title="No step has run yet.">
        <p>
          {LIVE.has(d.status)
            ? 'The runner picks the deployment up in turn; this page follows it.'
            : 'The deployment ended before its first step.'}
        </p>
      </EmptyState>
    );
  }
  return (
    <div className="table-scroll">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Result</th>
            <th scope="col">Started</th>
            <th scope="col">Took</th>
            <th scope="col">Detail</th>
          </tr>
        </thead>
        <tbody>
          {d.steps.map((s, i) => (
            <tr key={`${s.step}-${i}`}>
              <td>{s.step}</td>
              <td>
                <StatusBadge status={stepResult(s)} />
              </td>
              <td>{exactTime(s.startedAt)}</td>
              <td>{duration(s.startedAt, s.finishedAt)}</td>
              <td className="detail">{s.detail ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Snapshot({ d }: { d: Details }) {
  const { snapshot } = d;
  return (
    <>
      <dl className="facts">
        <div>
          <dt>Service</dt>
          <dd>
            {snapshot.serviceName} <span className="muted">({snapshot.environment})</span>
          </dd>
        </div>
        <div>
          <dt>Server</dt>
          <dd>
            <code className="small">{snapshot.serverId}</code>
          </dd>
        </div>
        <div>
          <dt>Health check</dt>
          <dd>{snapshot.healthCheckUrl ?? <span className="muted">none</span>}</dd>
        </div>
      </dl>
      <h3>Environment</h3>
      {snapshot.env.length === 0 ? (
        <p className="muted">No environment variables.</p>
      ) : (
        <div className="table-scroll">
          <table className="table compact">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {snapshot.env.map((v) => (
                <tr key={v.name}>
                  <td>
                    <code>{v.name}</code>
                  </td>
                  <td>
                    {v.secret ? (
                      <span className="masked">secret, not shown</span>
                    ) : (
                      <code>{v.value}</code>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3>Compose file</h3>
      <pre className="code-block">
        <code>{snapshot.compose}</code>
      </pre>
    </>
  );
}

/** One deployment: how it stands, its steps and timings, its frozen configuration and its log. */
export function DeploymentPage() {
  const { id } = useParams<{ id: string }>();
  const details = useQuery({
    queryKey: ['deploymentDetails', id],
    queryFn: () => query('deploymentDetails', { deploymentId: id }),
    refetchInterval: (q) => (q.state.data && !LIVE.has(q.state.data.status) ? false : POLL_MS),
  });

  if (details.isPending) {
    return (
      <Page title="Deployment">
        <Loading what="the deployment" />
      </Page>
    );
  }
  if (details.isError) {
    const missing =
      details.error instanceof ApiError &&
      (details.error.code === 'NOT_FOUND' || details.error.code === 'BAD_REQUEST');
    return (
      <Page title={missing ? 'No such deployment' : 'Deployment'}>
        {missing ? (
          <EmptyState title="There is no deployment with this id.">
            <p>
              It may have been mistyped. <Link href="/deployments">See every deployment</Link>.
            </p>
          </EmptyState>
        ) : (
          <FormError error={details.error} />
        )}
      </Page>
    );
  }
  const d = details.data;
  const live = LIVE.has(d.status);
  return (
    <Page
      title={`${d.serviceName} · ${d.environment}`}
      actions={<Link href="/deployments">All deployments</Link>}
    >
      {d.failureReason && (
        <div className="alert alert-error" role="status">
          <p>
            Failed{d.failedStep ? ` at ${d.failedStep}` : ''}: {d.failureReason}
          </p>
        </div>
      )}
      <section className="card" aria-labelledby="facts-title">
        <h2 id="facts-title">Deployment</h2>
        <Facts d={d} />
        {live && <p className="muted small">This page follows the deployment while it runs.</p>}
        <CancelDeployment d={d} />
        <RollBack d={d} />
      </section>
      <Cutover d={d} live={live} />
      <section className="card" aria-labelledby="steps-title">
        <h2 id="steps-title">Steps</h2>
        <Steps d={d} />
      </section>
      <section className="card" aria-labelledby="logs-title">
        <h2 id="logs-title">Log</h2>
        <Logs deploymentId={d.id} live={live} />
      </section>
      <section className="card" aria-labelledby="snapshot-title">
        <h2 id="snapshot-title">Configuration, as frozen when triggered</h2>
        <Snapshot d={d} />
      </section>
    </Page>
  );
}
