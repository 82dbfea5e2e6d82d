import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useLocation, useSearch } from 'wouter';
import type { AnswerOf } from '../api/answers';
import { query } from '../api/client';
import type { ProcedureInputs } from '../api/contract';
import { FormError } from '../components/form';
import { EmptyState, Loading, Page } from '../components/page';
import { StatusBadge } from '../components/status';
import { duration, When } from '../components/time';
import { requester } from '../components/words';

type Summary = AnswerOf<'recentDeployments'>['items'][number];
type Status = NonNullable<ProcedureInputs['recentDeployments']['status']>;
const STATUSES: Status[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];
const isStatus = (s: string | null): s is Status => STATUSES.includes(s as Status);

/** Deployments as rows: the service, the image, how it went and when. */
export function DeploymentRows({ items }: { items: Summary[] }) {
  return (
    <div className="table-scroll">
      <table className="table stack">
        <thead>
          <tr>
            <th scope="col">Service</th>
            <th scope="col">Image</th>
            <th scope="col">Status</th>
            <th scope="col">Requested</th>
            <th scope="col">Took</th>
          </tr>
        </thead>
        <tbody>
          {items.map((d) => (
            <tr key={d.id}>
              <td data-label="Service">
                <Link href={`/deployments/${d.id}`} className="row-link">
                  {d.serviceName}
                  {/* Each row's link says which deployment it opens, not only the service. */}
                  <span className="visually-hidden">
                    {' '}
                    {d.environment}: {d.imageRef}, {d.status}
                  </span>
                </Link>{' '}
                <span className="muted">{d.environment}</span>
                {d.rollbackOf && <span className="tag">rollback</span>}
              </td>
              <td data-label="Image">
                <code className="image">{d.imageRef}</code>
              </td>
              <td data-label="Status">
                <StatusBadge status={d.status} />
                {d.failedStep && <span className="muted"> at {d.failedStep}</span>}
              </td>
              <td data-label="Requested">
                <When at={d.createdAt} />
                <span className="muted"> by {requester(d.requestedBy)}</span>
              </td>
              <td data-label="Took">{d.startedAt ? duration(d.startedAt, d.finishedAt) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Every deployment, newest first, filtered by status (kept in the address, so it can be shared). */
export function DeploymentsPage() {
  const [location, navigate] = useLocation();
  const wanted = new URLSearchParams(useSearch()).get('status');
  const status = isStatus(wanted) ? wanted : undefined;
  const list = useInfiniteQuery({
    queryKey: ['recentDeployments', 'list', status ?? 'all'],
    queryFn: ({ pageParam }) =>
      query('recentDeployments', { limit: 25, status, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: 5_000,
  });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <Page title="Deployments">
      <div className="filters">
        <label htmlFor="status-filter">Status</label>
        <select
          id="status-filter"
          value={status ?? ''}
          onChange={(e) =>
            navigate(e.target.value ? `${location}?status=${e.target.value}` : location, {
              replace: true,
            })
          }
        >
          <option value="">Any</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s[0].toUpperCase() + s.slice(1)}
            </option>
          ))}
        </select>
      </div>
      {list.isPending ? (
        <Loading what="deployments" />
      ) : list.isError ? (
        <FormError error={list.error} />
      ) : items.length === 0 ? (
        status ? (
          <EmptyState title={`No ${status} deployments.`}>
            <p>
              <Link href="/deployments">Show deployments of any status</Link>.
            </p>
          </EmptyState>
        ) : (
          <EmptyState title="No deployments yet.">
            <p>
              Deploy a registered service from a terminal:{' '}
              <code>slipway deploy &lt;service&gt; &lt;tag&gt; --wait</code>. It appears here at
              once, and its steps and logs as the runner works.
            </p>
          </EmptyState>
        )
      ) : (
        <section className="card">
          <DeploymentRows items={items} />
          {list.hasNextPage && (
            <button
              type="button"
              className="button"
              onClick={() => void list.fetchNextPage()}
              disabled={list.isFetchingNextPage}
            >
              {list.isFetchingNextPage ? 'Loading…' : 'Show older deployments'}
            </button>
          )}
        </section>
      )}
    </Page>
  );
}
