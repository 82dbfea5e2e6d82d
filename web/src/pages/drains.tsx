import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AnswerOf } from '../api/answers';
import { useCan } from '../api/access';
import { mutate, query } from '../api/client';
import { Confirm } from '../components/confirm';
import { FormError } from '../components/form';
import { EmptyState, Loading } from '../components/page';
import { StatusBadge } from '../components/status';
import { When } from '../components/time';
import { DRAIN_SOURCES, DrainForm, KIND_LABEL } from './drain-form';

type Drain = AnswerOf<'drains'>['drains'][number];

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** No back-off left to wait (the list is a few seconds old at most). */
const due = (at: string | null) => at === null || Date.parse(at) <= Date.now();

const sourceLabel = (source: Drain['sources'][number]) =>
  DRAIN_SOURCES.find((s) => s.value === source)?.label ?? source;

function DrainCard({ drain }: { drain: Drain }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['drains'] });
  // Configured whole: the drain as it is with `enabled` flipped; headers left out are kept.
  const toggle = useMutation({
    mutationFn: () =>
      mutate('configureDrain', {
        drainId: drain.drainId,
        displayName: drain.displayName,
        kind: drain.kind,
        endpoint: drain.endpoint,
        sources: drain.sources,
        enabled: !drain.enabled,
        ...(drain.caCertificate !== null ? { caCertificate: drain.caCertificate } : {}),
      }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => mutate('removeDrain', { drainId: drain.drainId }),
    onSuccess: refresh,
  });
  const { delivery } = drain;
  const name = drain.displayName;
  return (
    <section className="card drain" aria-label={name}>
      <div className="card-header">
        <h3>
          {name} <span className="muted small">{drain.drainId}</span>
        </h3>
        <StatusBadge status={delivery.status} />
      </div>
      <dl className="facts">
        <div className="fact-wide">
          <dt>Endpoint</dt>
          <dd>
            <code>{drain.endpoint}</code>
            {drain.caCertificate !== null && <span className="muted small"> (own CA)</span>}
          </dd>
        </div>
        <div>
          <dt>Kind</dt>
          <dd>{KIND_LABEL[drain.kind]}</dd>
        </div>
        <div>
          <dt>Sends</dt>
          <dd>{drain.sources.map(sourceLabel).join(', ')}</dd>
        </div>
        {drain.kind === 'otlp' && (
          <div>
            <dt>Headers</dt>
            <dd>
              {drain.headerNames.length > 0 ? (
                drain.headerNames.map((h, i) => (
                  <span key={h}>
                    {i > 0 && ', '}
                    <code>{h}</code>
                  </span>
                ))
              ) : (
                <span className="muted">none</span>
              )}
            </dd>
          </div>
        )}
        <div>
          <dt>Behind</dt>
          <dd>{count(delivery.behind, 'event', 'events')}</dd>
        </div>
        <div>
          <dt>Delivered</dt>
          <dd>{count(delivery.delivered, 'record', 'records')}</dd>
        </div>
        <div>
          <dt>Last delivered</dt>
          <dd>
            <When at={delivery.lastDeliveredAt} />
          </dd>
        </div>
        {delivery.status === 'failing' && (
          <>
            <div>
              <dt>Next attempt</dt>
              <dd>
                {due(delivery.nextAttemptAt) ? 'due now' : <When at={delivery.nextAttemptAt} />}
              </dd>
            </div>
            <div className="fact-wide">
              <dt>Last error</dt>
              <dd className="error-text">
                {delivery.lastError ?? 'unknown'}{' '}
                <span className="small">
                  ({count(delivery.failures, 'failed attempt', 'failed attempts')} since the last
                  delivery)
                </span>
              </dd>
            </div>
          </>
        )}
      </dl>
      {asking ? (
        <Confirm
          question={`Remove ${name}?`}
          note="It ships nothing more, and its place is forgotten."
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
          onKeep={() => setAsking(false)}
        >
          Yes, remove {name}
        </Confirm>
      ) : (
        (can('configureDrain') || can('removeDrain')) && (
          <div className="button-row">
            {can('configureDrain') && (
              <button
                type="button"
                className="button"
                disabled={toggle.isPending}
                onClick={() => toggle.mutate()}
              >
                {drain.enabled ? `Disable ${name}` : `Enable ${name}`}
              </button>
            )}
            {can('removeDrain') && (
              <button type="button" className="button danger" onClick={() => setAsking(true)}>
                Remove {name}…
              </button>
            )}
          </div>
        )
      )}
      <FormError error={toggle.error ?? remove.error} />
    </section>
  );
}

/**
 * The drains (audit trail and deployment output streamed to the team's syslog server or OTLP
 * collector) and how each is delivering; shown to those who may read them.
 */
export function Drains() {
  const can = useCan();
  const [adding, setAdding] = useState(false);
  const readable = can('drains');
  const drains = useQuery({
    queryKey: ['drains'],
    queryFn: () => query('drains'),
    enabled: readable,
    refetchInterval: 3000,
  });
  if (!readable) return null;
  const list = drains.data?.drains ?? [];
  return (
    <section className="drains" aria-labelledby="drains-title">
      <div className="section-header">
        <h2 id="drains-title">Drains</h2>
        {can('configureDrain') && (
          <button
            type="button"
            className="button primary"
            aria-expanded={adding}
            onClick={() => setAdding(!adding)}
          >
            {adding ? 'Close the drain form' : 'Add a drain'}
          </button>
        )}
      </div>
      <p className="muted">
        The audit trail and deployment output, streamed as they happen to your own syslog server or
        OpenTelemetry collector.
      </p>
      {adding && (
        <section className="card">
          <DrainForm taken={list.map((d) => d.drainId)} />
        </section>
      )}
      {drains.isPending ? (
        <Loading what="drains" />
      ) : drains.isError ? (
        <FormError error={drains.error} />
      ) : list.length === 0 ? (
        <EmptyState title="No drain yet.">
          <p>
            Add one to feed a SIEM every audit record as it happens (or{' '}
            <code>slipway drains set</code>).
          </p>
        </EmptyState>
      ) : (
        list.map((d) => <DrainCard key={d.drainId} drain={d} />)
      )}
    </section>
  );
}
