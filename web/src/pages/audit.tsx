import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { AnswerOf } from '../api/answers';
import { query } from '../api/client';
import type { ProcedureInputs } from '../api/contract';
import { SelectField } from '../components/fields';
import { Field, FormError, SubmitButton } from '../components/form';
import { EmptyState, Loading, Page } from '../components/page';
import { StatusBadge } from '../components/status';
import { exactTime } from '../components/time';

type Entry = AnswerOf<'auditTrail'>['entries'][number];
type Filters = Pick<ProcedureInputs['auditTrail'], 'actor' | 'action' | 'outcome' | 'from' | 'to'>;
const KEYS = ['actor', 'action', 'outcome', 'from', 'to'] as const;
const OUTCOMES = ['succeeded', 'denied', 'rejected'] as const;

function filtersFrom(search: string): Filters {
  const params = new URLSearchParams(search);
  const filters: Filters = {};
  for (const key of KEYS) {
    const value = params.get(key);
    if (!value) continue;
    if (key === 'outcome') {
      if ((OUTCOMES as readonly string[]).includes(value)) {
        filters.outcome = value as Filters['outcome'];
      }
    } else {
      filters[key] = value;
    }
  }
  return filters;
}

/** A datetime-local value (the browser's time zone) as ISO 8601, or nothing. */
function isoOf(local: string): string | undefined {
  if (!local) return undefined;
  const time = new Date(local);
  return Number.isNaN(time.getTime()) ? local : time.toISOString();
}

function FilterForm({ filters }: { filters: Filters }) {
  const [location, navigate] = useLocation();
  const [form, setForm] = useState({
    actor: filters.actor ?? '',
    action: filters.action ?? '',
    outcome: filters.outcome ?? '',
    from: '',
    to: '',
  });
  const apply = (e: FormEvent) => {
    e.preventDefault();
    const params = new URLSearchParams();
    const values = {
      ...form,
      from: isoOf(form.from) ?? filters.from,
      to: isoOf(form.to) ?? filters.to,
    };
    for (const key of KEYS) {
      const v = values[key];
      if (v) params.set(key, v);
    }
    const qs = params.toString();
    navigate(qs ? `${location}?${qs}` : location, { replace: true });
  };
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  return (
    <form className="card audit-filters" onSubmit={apply} aria-label="Filter the trail">
      <Field
        name="actor"
        label="Actor (principal id)"
        value={form.actor}
        onChange={(e) => set('actor')(e.target.value)}
      />
      <Field
        name="action"
        label="Action (event type)"
        placeholder="DeploymentTriggered"
        value={form.action}
        onChange={(e) => set('action')(e.target.value)}
      />
      <SelectField
        name="outcome"
        label="Outcome"
        value={form.outcome}
        onChange={(e) => set('outcome')(e.target.value)}
        options={[{ value: '', label: 'Any' }, ...OUTCOMES.map((o) => ({ value: o, label: o }))]}
      />
      <Field
        name="from"
        label="From"
        type="datetime-local"
        value={form.from}
        onChange={(e) => set('from')(e.target.value)}
      />
      <Field
        name="to"
        label="Until"
        type="datetime-local"
        value={form.to}
        onChange={(e) => set('to')(e.target.value)}
      />
      <div className="button-row">
        <SubmitButton pending={false}>Filter</SubmitButton>
        <button
          type="button"
          className="button"
          onClick={() => {
            setForm({ actor: '', action: '', outcome: '', from: '', to: '' });
            navigate(location, { replace: true });
          }}
        >
          Clear
        </button>
      </div>
    </form>
  );
}

function EntryRow({ entry }: { entry: Entry }) {
  return (
    <li className="audit-entry">
      <details>
        <summary>
          <span className="audit-when">{exactTime(entry.time)}</span>{' '}
          <strong>{entry.action}</strong> <StatusBadge status={entry.outcome} />{' '}
          <span className="muted">by {entry.actor.label}</span>
        </summary>
        <dl className="facts">
          {(
            [
              ['Position', entry.position],
              ['Resource', entry.resource],
              ['Stream', entry.stream],
              ['Code', entry.code],
              [
                'Actor',
                `${entry.actor.label} (${entry.actor.kind}, ${entry.actor.role ?? '—'}), ${entry.actor.id}`,
              ],
              [
                'Credential',
                `${entry.authMethod}${entry.token ? `, token ${entry.token.name}` : ''}`,
              ],
              ['Channel', entry.channel],
              ['Client address', entry.clientAddress],
              ['Request', entry.requestId],
              ['Fields sent', entry.inputFields?.join(', ')],
              ['Repeats', entry.count],
            ] as const
          ).map(([label, value]) =>
            value === null || value === undefined || value === '' ? null : (
              <div key={label}>
                <dt>{label}</dt>
                <dd>
                  <code className="small">{String(value)}</code>
                </dd>
              </div>
            ),
          )}
        </dl>
      </details>
    </li>
  );
}

function Verify() {
  const verify = useMutation({ mutationFn: () => query('verifyAuditTrail', {}) });
  const report = verify.data;
  return (
    <section className="card" aria-labelledby="verify-title">
      <h2 id="verify-title">Tamper evidence</h2>
      <p className="small muted">
        Recomputes the hash chain from the event store and checks every signed checkpoint.
      </p>
      <button
        type="button"
        className="button primary"
        disabled={verify.isPending}
        onClick={() => verify.mutate()}
      >
        {verify.isPending ? 'Verifying…' : 'Verify the chain'}
      </button>
      <FormError error={verify.error} />
      {report && (
        <div className={report.ok ? 'alert alert-info' : 'alert alert-error'} role="status">
          <p>
            {report.ok ? 'Verified: ' : 'NOT verified: '}
            {report.message}
          </p>
          {report.firstBadPosition !== null && <p>First bad position: {report.firstBadPosition}</p>}
          <p className="small">Public key (publish it; exports verify against it):</p>
          <pre className="code-block small">
            <code>{report.publicKey}</code>
          </pre>
        </div>
      )}
      <h3>Export</h3>
      <p className="small">
        The trail as stored, signed:{' '}
        <a href="/api/v1/audit/export?format=ndjson" download="slipway-audit.ndjson">
          NDJSON
        </a>{' '}
        ·{' '}
        <a href="/api/v1/audit/export?format=csv" download="slipway-audit.csv">
          CSV
        </a>
        . Check a file offline with <code>slipway audit verify-export</code>.
      </p>
    </section>
  );
}

/** The audit trail: every event and refused call, filtered; the chain verified; exports. */
export function AuditPage() {
  const filters = filtersFrom(useSearch());
  const trail = useInfiniteQuery({
    queryKey: ['auditTrail', filters],
    queryFn: ({ pageParam }) => query('auditTrail', { ...filters, limit: 50, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const items = trail.data?.pages.flatMap((p) => p.entries) ?? [];
  const filtered = Object.keys(filters).length > 0;
  return (
    <Page title="Audit trail">
      <Verify />
      <FilterForm filters={filters} />
      {trail.isPending ? (
        <Loading what="the trail" />
      ) : trail.isError ? (
        <FormError error={trail.error} fields={[...KEYS]} />
      ) : items.length === 0 ? (
        <EmptyState title={filtered ? 'No entry matches.' : 'The trail is empty.'}>
          <p>
            {filtered
              ? 'Clear a filter or widen the time range.'
              : 'Every change and refused call appears here.'}
          </p>
        </EmptyState>
      ) : (
        <section className="card" aria-label="Entries">
          <ul className="audit-list">
            {items.map((e) => (
              <EntryRow key={`${e.position}-${e.eventId}`} entry={e} />
            ))}
          </ul>
          {trail.hasNextPage && (
            <button
              type="button"
              className="button"
              onClick={() => void trail.fetchNextPage()}
              disabled={trail.isFetchingNextPage}
            >
              {trail.isFetchingNextPage ? 'Loading…' : 'Show older entries'}
            </button>
          )}
        </section>
      )}
    </Page>
  );
}
