import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { AnswerOf } from '../api/answers';
import { FormError } from '../components/form';
import { EmptyState, Loading, Page } from '../components/page';
import { StatusBadge } from '../components/status';
import { When } from '../components/time';
import { requester } from '../components/words';
import { DeploymentRows } from './deployments';
import { DeliveryMetricsPanel } from './overview-metrics';
import { METRICS_DAYS, overviewQueries } from './overview-queries';

type Health = AnswerOf<'health'>;

function uptime(seconds: number): string {
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400)
    return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
  return `${Math.floor(seconds / 86_400)} days`;
}

function HealthPanel({ health }: { health: Health }) {
  if (!('projections' in health)) {
    return (
      <p>
        <StatusBadge status={health.status} /> version {health.version}
      </p>
    );
  }
  const behind = health.projections.items.filter((p) => p.lag > 0 || p.status !== 'running');
  return (
    <>
      <dl className="facts">
        <div>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={health.status} />
          </dd>
        </div>
        <div>
          <dt>Version</dt>
          <dd>{health.version}</dd>
        </div>
        <div>
          <dt>Up for</dt>
          <dd>{uptime(health.uptimeSeconds)}</dd>
        </div>
        <div>
          <dt>Events stored</dt>
          <dd>{health.eventStore.headPosition.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Read models behind</dt>
          <dd>
            {health.projections.lag === 0
              ? 'none: up to date'
              : `${health.projections.lag.toLocaleString()} events`}
          </dd>
        </div>
      </dl>
      {behind.length > 0 && (
        <table className="table compact">
          <caption>Read models catching up</caption>
          <thead>
            <tr>
              <th scope="col">Read model</th>
              <th scope="col">Behind by</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {behind.map((p) => (
              <tr key={p.name}>
                <td>{p.name}</td>
                <td>{p.lag.toLocaleString()} events</td>
                <td>
                  <StatusBadge status={p.status} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** The state of the service at a glance: health, the latest deployments, what waits for approval. */
export function OverviewPage() {
  const health = useQuery(overviewQueries.health);
  const recent = useQuery(overviewQueries.recent);
  const approvals = useQuery(overviewQueries.approvals);
  const metrics = useQuery(overviewQueries.metrics(METRICS_DAYS));
  // One reveal once the first answers are in (asked for together): nothing on the page moves
  // because a panel above it filled in later.
  if ([health, recent, approvals, metrics].some((q) => q.isPending))
    return (
      <Page title="Overview">
        <Loading what="the overview" />
      </Page>
    );

  return (
    <Page title="Overview">
      <div className="grid">
        <section className="card" aria-labelledby="health-title">
          <h2 id="health-title">Service health</h2>
          {health.isPending ? (
            <Loading what="health" />
          ) : health.isError ? (
            <FormError error={health.error} />
          ) : (
            <HealthPanel health={health.data} />
          )}
        </section>

        <section className="card" aria-labelledby="approvals-title">
          <h2 id="approvals-title">Waiting for approval</h2>
          {approvals.isPending ? (
            <Loading what="approvals" />
          ) : approvals.isError ? (
            <FormError error={approvals.error} />
          ) : approvals.data.items.length === 0 ? (
            <EmptyState title="Nothing waits for approval.">
              <p>
                Deployments of services with an approval rule wait here for a second person. Set a
                rule with <code>slipway services update &lt;name&gt; --approval-rule agents</code>.
              </p>
            </EmptyState>
          ) : (
            <ul className="list">
              {approvals.data.items.map((a) => (
                <li key={a.id}>
                  <strong>{a.serviceName ?? 'unknown service'}</strong>{' '}
                  {a.environment && <span className="muted">({a.environment})</span>}: {a.action}
                  <br />
                  <span className="muted">
                    asked by {requester(a.requestedBy)} <When at={a.requestedAt} />; “{a.reason}”
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>

      <section className="card" aria-labelledby="recent-title">
        <div className="card-header">
          <h2 id="recent-title">Recent deployments</h2>
          <Link href="/deployments">All deployments</Link>
        </div>
        {recent.isPending ? (
          <Loading what="deployments" />
        ) : recent.isError ? (
          <FormError error={recent.error} />
        ) : recent.data.items.length === 0 ? (
          <EmptyState title="No deployments yet.">
            <p>
              Register a <Link href="/servers">server</Link> and a{' '}
              <Link href="/services">service</Link>, then deploy an image. Or from a terminal:
            </p>
            <pre>
              <code>
                slipway servers register web-1 --host … --user deploy --key-file ~/.ssh/id_ed25519
                {'\n'}
                slipway services register --server web-1 --name api --environment production …{'\n'}
                slipway deploy api 1.0.0 --wait
              </code>
            </pre>
            <p className="muted">The README’s “First deploy in five minutes” walks through it.</p>
          </EmptyState>
        ) : (
          <DeploymentRows items={recent.data.items} />
        )}
      </section>
      <DeliveryMetricsPanel />
    </Page>
  );
}
