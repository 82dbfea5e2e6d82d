import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import type { AnswerOf } from '../api/answers';
import { useCan } from '../api/access';
import { mutate, query } from '../api/client';
import { FormError } from '../components/form';
import { EmptyState, Loading, Page } from '../components/page';
import { StatusBadge } from '../components/status';
import { When } from '../components/time';
import { requester } from '../components/words';
import { FrozenRequest } from './approval-frozen';

type Request = AnswerOf<'approvalQueue'>['items'][number];
const STATUSES = ['pending', 'approved', 'rejected', 'expired'] as const;
type Status = (typeof STATUSES)[number];
const isStatus = (s: string | null): s is Status => STATUSES.includes(s as Status);

/** A rollback names the deployment it goes back to. */
function rollbackTarget(r: Request): string | null {
  const target = r.payload.targetDeploymentId;
  return typeof target === 'string' ? target : null;
}

/** Approve or reject, with a note; the API refuses a request you filed yourself, and says so. */
function Decide({ request }: { request: Request }) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const decide = useMutation({
    mutationFn: (verdict: 'approve' | 'reject') =>
      mutate(verdict === 'approve' ? 'approveRequest' : 'rejectRequest', {
        approvalId: request.id,
        ...(note ? { note } : {}),
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['approvalQueue'] });
      void queryClient.invalidateQueries({ queryKey: ['recentDeployments'] });
    },
  });
  const noteId = `note-${request.id}`;
  return (
    <div className="decide">
      <div className="field">
        <label htmlFor={noteId}>Note (optional)</label>
        <input id={noteId} value={note} maxLength={280} onChange={(e) => setNote(e.target.value)} />
      </div>
      <FormError error={decide.error} fields={['note']} />
      <div className="button-row">
        <button
          type="button"
          className="button primary"
          disabled={decide.isPending || request.frozen.stale}
          onClick={() => decide.mutate('approve')}
        >
          Approve
        </button>
        <button
          type="button"
          className="button danger"
          disabled={decide.isPending}
          onClick={() => decide.mutate('reject')}
        >
          Reject
        </button>
      </div>
    </div>
  );
}

function RequestCard({ request }: { request: Request }) {
  const can = useCan();
  const headingId = `approval-${request.id}`;
  return (
    <li className="card" aria-labelledby={headingId}>
      <div className="card-header">
        <h2 id={headingId}>
          {request.action} {request.serviceName ?? 'unknown service'}{' '}
          <span className="muted">{request.environment}</span>
        </h2>
        <StatusBadge status={request.status} />
      </div>
      {rollbackTarget(request) && (
        <p className="small">
          Back to{' '}
          <Link href={`/deployments/${rollbackTarget(request)}`}>
            deployment {rollbackTarget(request)!.slice(0, 8)}
          </Link>
        </p>
      )}
      <FrozenRequest frozen={request.frozen} id={request.id} />
      <p>
        Asked by {requester(request.requestedBy)} <When at={request.requestedAt} />: “
        {request.reason}”
      </p>
      {request.status === 'pending' && (
        <p className="muted small">
          Expires <When at={request.expiresAt} />.
        </p>
      )}
      {request.decidedAt && (
        <p className="muted small">
          Decided <When at={request.decidedAt} />
          {request.note && `: “${request.note}”`}
        </p>
      )}
      {request.executedDeploymentId && (
        <p>
          <Link href={`/deployments/${request.executedDeploymentId}`}>The deployment it ran</Link>
        </p>
      )}
      {request.status === 'pending' && can('approveRequest') && <Decide request={request} />}
    </li>
  );
}

/** The approval queue: pending requests first; decided ones by filter. */
export function ApprovalsPage() {
  const [location, navigate] = useLocation();
  const wanted = new URLSearchParams(useSearch()).get('status');
  const status: Status = isStatus(wanted) ? wanted : 'pending';
  const list = useInfiniteQuery({
    queryKey: ['approvalQueue', 'list', status],
    queryFn: ({ pageParam }) => query('approvalQueue', { status, limit: 50, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Page title="Approvals">
      <div className="filters">
        <label htmlFor="approval-status">Status</label>
        <select
          id="approval-status"
          value={status}
          onChange={(e) => navigate(`${location}?status=${e.target.value}`, { replace: true })}
        >
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s[0].toUpperCase() + s.slice(1)}
            </option>
          ))}
        </select>
      </div>
      {list.isPending ? (
        <Loading what="approvals" />
      ) : list.isError ? (
        <FormError error={list.error} />
      ) : items.length === 0 ? (
        <EmptyState title={`No ${status} request.`}>
          <p>
            A deploy or rollback of a service whose approval rule applies waits here for a second
            person. Set the rule on the <Link href="/services">service</Link>.
          </p>
        </EmptyState>
      ) : (
        <>
          <ul className="cards">
            {items.map((r) => (
              <RequestCard key={r.id} request={r} />
            ))}
          </ul>
          {list.hasNextPage && (
            <button
              type="button"
              className="button"
              onClick={() => void list.fetchNextPage()}
              disabled={list.isFetchingNextPage}
            >
              {list.isFetchingNextPage ? 'Loading…' : 'Show more requests'}
            </button>
          )}
        </>
      )}
    </Page>
  );
}
