import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import type { AnswerOf } from '../api/answers';
import { FormError } from '../components/form';
import { EmptyState, Loading } from '../components/page';
import { METRICS_DAYS, overviewQueries } from './overview-queries';

type Answer = AnswerOf<'deliveryMetrics'>;
type Metrics = Answer['overall'];

/** The chart library (uPlot) loads only with this panel, never with the first page. */
const DeliveryChart = lazy(() => import('../components/delivery-chart'));

const WINDOWS = [7, 30, 90] as const;

export function durationText(seconds: number | undefined): string {
  if (seconds === undefined) return '—';
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 360) / 10} h`;
  return `${Math.round(seconds / 8640) / 10} days`;
}

const rateText = (r: number | null) => (r === null ? '—' : `${Math.round(r * 1000) / 10} %`);

function Tiles({ m }: { m: Metrics }) {
  return (
    <dl className="tiles">
      <div>
        <dt>Deployment frequency</dt>
        <dd>
          {m.deploymentsPerDay} / day <span className="muted small">({m.succeeded} succeeded)</span>
        </dd>
      </div>
      <div>
        <dt>Lead time (median)</dt>
        <dd>{durationText(m.leadTimeSeconds?.median)}</dd>
      </div>
      <div>
        <dt>Change failure rate</dt>
        <dd>
          {rateText(m.changeFailureRate)} <span className="muted small">({m.failed} failed)</span>
        </dd>
      </div>
      <div>
        <dt>Time to restore (median)</dt>
        <dd>
          {durationText(m.timeToRestoreSeconds?.median)}
          {m.unrestoredFailures > 0 && (
            <span className="muted small"> ({m.unrestoredFailures} not restored)</span>
          )}
        </dd>
      </div>
    </dl>
  );
}

function PerService({ services }: { services: Metrics[] }) {
  return (
    <div className="table-scroll">
      <table className="table stack compact">
        <thead>
          <tr>
            <th scope="col">Service</th>
            <th scope="col">Per day</th>
            <th scope="col">Lead time</th>
            <th scope="col">Failure rate</th>
            <th scope="col">Restore</th>
          </tr>
        </thead>
        <tbody>
          {services.map((s) => (
            <tr key={s.serviceId}>
              <td data-label="Service">
                {s.serviceName} <span className="muted">{s.environment}</span>
              </td>
              <td data-label="Per day">{s.deploymentsPerDay}</td>
              <td data-label="Lead time">{durationText(s.leadTimeSeconds?.median)}</td>
              <td data-label="Failure rate">{rateText(s.changeFailureRate)}</td>
              <td data-label="Restore">{durationText(s.timeToRestoreSeconds?.median)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Delivery metrics on the overview: four figures, deployments per day, and per service. */
export function DeliveryMetricsPanel() {
  const [days, setDays] = useState<number>(METRICS_DAYS);
  const metrics = useQuery(overviewQueries.metrics(days));
  return (
    <section className="card" aria-labelledby="metrics-title">
      <div className="card-header">
        <h2 id="metrics-title">Delivery metrics</h2>
        <div className="filters">
          <label htmlFor="metrics-window">Window</label>
          <select
            id="metrics-window"
            value={days}
            onChange={(e) => setDays(Number(e.target.value))}
          >
            {WINDOWS.map((d) => (
              <option key={d} value={d}>
                {d} days
              </option>
            ))}
          </select>
        </div>
      </div>
      {metrics.isPending ? (
        <Loading what="metrics" />
      ) : metrics.isError ? (
        <FormError error={metrics.error} />
      ) : metrics.data.overall.succeeded + metrics.data.overall.failed === 0 ? (
        <EmptyState title={`No deployment finished in the last ${days} days.`}>
          <p>
            Deploy a service (Services → Deploy…); its frequency, lead time, failure rate and time
            to restore appear here. <code>slipway metrics</code> prints them too.
          </p>
        </EmptyState>
      ) : (
        <>
          <Tiles m={metrics.data.overall} />
          {/* The fallback takes the chart's place, so nothing below moves when it arrives. */}
          <Suspense
            fallback={
              <div className="delivery-chart">
                <Loading what="the chart" />
              </div>
            }
          >
            <DeliveryChart daily={metrics.data.overall.daily} />
          </Suspense>
          <PerService services={metrics.data.services} />
          <p className="muted small">
            Lead time runs from the deploy request to its success (approval and queue included);
            days are UTC.
          </p>
        </>
      )}
    </section>
  );
}
