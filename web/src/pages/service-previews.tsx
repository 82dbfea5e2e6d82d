import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import type { AnswerOf } from '../api/answers';
import { useCan } from '../api/access';
import { mutate, query } from '../api/client';
import { FormError } from '../components/form';
import { Loading } from '../components/page';
import { StatusBadge } from '../components/status';

type Preview = AnswerOf<'servicePreviews'>['previews'][number];

/** One preview: where it answers, what runs, and (for those who may) approve or close it. */
function PreviewRow({ serviceId, preview }: { serviceId: string; preview: Preview }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<'approve' | 'close' | null>(null);
  const refresh = () => {
    setAsking(null);
    void queryClient.invalidateQueries({ queryKey: ['servicePreviews'] });
  };
  const approve = useMutation({
    // The commit shown here is the one approved: a push since is refused, to be looked at.
    mutationFn: () =>
      mutate('approveServicePreview', {
        serviceId,
        number: preview.number,
        headCommit: preview.headCommit ?? '',
      }),
    onSuccess: refresh,
  });
  const close = useMutation({
    mutationFn: () => mutate('closeServicePreview', { serviceId, number: preview.number }),
    onSuccess: refresh,
  });
  const pending = approve.isPending || close.isPending;
  const deployment = preview.latestDeployment;
  return (
    <li>
      <p>
        <strong>#{preview.number}</strong> {preview.title ?? ''}{' '}
        <StatusBadge status={preview.state} />
        {preview.fromFork && <span className="muted small"> from a fork</span>}
      </p>
      <p className="muted small">
        {preview.url && preview.state === 'live' && (
          <>
            <a href={preview.url} rel="noreferrer noopener" target="_blank">
              {preview.url}
            </a>{' '}
          </>
        )}
        {preview.headCommit && <code>{preview.headCommit.slice(0, 12)}</code>}
        {preview.author && <> by {preview.author}</>}
        {deployment && (
          <>
            {' '}
            · <Link href={`/deployments/${deployment.id}`}>deployment {deployment.status}</Link>
          </>
        )}
      </p>
      {asking ? (
        <div className="button-row" role="group" aria-label={`${asking} #${preview.number}?`}>
          <button
            type="button"
            className={asking === 'close' ? 'button danger' : 'button primary'}
            disabled={pending}
            onClick={() => (asking === 'close' ? close : approve).mutate()}
          >
            {asking === 'close'
              ? `Yes, tear #${preview.number} down`
              : `Yes, build and run #${preview.number} at ${preview.headCommit?.slice(0, 12) ?? '?'}`}
          </button>
          <button type="button" className="button" onClick={() => setAsking(null)}>
            Cancel
          </button>
        </div>
      ) : (
        <div className="button-row">
          {preview.state === 'waiting' && can('approveServicePreview') && (
            <button type="button" className="button" onClick={() => setAsking('approve')}>
              Approve #{preview.number}…
            </button>
          )}
          {preview.state !== 'closing' && can('closeServicePreview') && (
            <button type="button" className="button danger" onClick={() => setAsking('close')}>
              Close #{preview.number}…
            </button>
          )}
        </div>
      )}
      {asking === 'approve' && (
        <p className="muted small">
          Its code comes from someone else’s repository: it is built and run on your server.
        </p>
      )}
      <FormError error={approve.error ?? close.error} />
    </li>
  );
}

/** The "Previews" fact of a service card whose source previews pull requests. */
export function ServicePreviews({ serviceId }: { serviceId: string }) {
  const previews = useQuery({
    queryKey: ['servicePreviews', serviceId],
    queryFn: () => query('servicePreviews', { serviceId }),
    refetchInterval: 10_000,
  });
  return (
    <div className="fact-wide">
      <dt>Previews</dt>
      <dd>
        {previews.isPending ? (
          <Loading what="previews" />
        ) : previews.isError ? (
          <FormError error={previews.error} />
        ) : previews.data.previews.length === 0 ? (
          <span className="muted">No open pull request is previewed.</span>
        ) : (
          <ul className="plain-list" aria-label="Pull request previews">
            {previews.data.previews.map((p) => (
              <PreviewRow key={p.number} serviceId={serviceId} preview={p} />
            ))}
          </ul>
        )}
      </dd>
    </div>
  );
}
