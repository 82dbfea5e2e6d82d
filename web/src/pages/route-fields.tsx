import { useId, type InputHTMLAttributes } from 'react';
import type { AnswerOf } from '../api/answers';
import type { RouteInput } from '../api/contract';
import { issuesFor } from '../components/form';

type ServiceRoute =
  AnswerOf<'infrastructureInventory'>['servers'][number]['services'][number]['routes'][number];

/** A route as the form edits it: the port as typed, HTTPS as a checkbox (checked: tls auto). */
export interface RouteRow {
  domain: string;
  pathPrefix: string;
  service: string;
  port: string;
  https: boolean;
  hsts: boolean;
}

export function routeRows(routes: readonly ServiceRoute[]): RouteRow[] {
  return routes.map((r) => ({
    domain: r.domain,
    pathPrefix: r.pathPrefix ?? '',
    service: r.service,
    port: String(r.port),
    https: (r.tls ?? 'auto') === 'auto',
    hsts: r.hsts ?? false,
  }));
}

/** The rows as `routes` input; an empty port is sent as 0, so the server names the field. */
export function routeInput(rows: readonly RouteRow[]): RouteInput[] {
  return rows.map((r) => ({
    domain: r.domain.trim(),
    ...(r.pathPrefix.trim() ? { pathPrefix: r.pathPrefix.trim() } : {}),
    service: r.service.trim(),
    port: r.port.trim() === '' ? 0 : Number(r.port),
    tls: r.https ? 'auto' : 'off',
    hsts: r.https && r.hsts,
  }));
}

/** As many as the server takes per service. */
const MAX_ROUTES = 20;

const BLANK: RouteRow = {
  domain: '',
  pathPrefix: '',
  service: '',
  port: '',
  https: true,
  hsts: false,
};

/**
 * A service's routes, one row each: domain and optional path prefix → compose service and
 * container port, served over HTTPS (a certificate obtained for the domain, HTTP redirected) or
 * plain HTTP, with HSTS only over HTTPS. Every route of a domain is served the same way.
 */
export function RouteFields({
  rows,
  onChange,
  error,
}: {
  rows: RouteRow[];
  onChange: (rows: RouteRow[]) => void;
  error?: unknown;
}) {
  const update = (i: number, patch: Partial<RouteRow>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const listProblems = issuesFor(error, 'routes')
    .filter((p) => !/^routes\.\d/.test(p.path))
    .map((p) => p.message);
  return (
    <fieldset className="route-fields">
      <legend>Routes</legend>
      <p className="field-hint">
        The server’s edge proxy sends requests for a domain (and path) to a container port of a
        compose service; a domain belongs to one service. HTTPS: a certificate is obtained for the
        domain and plain HTTP is redirected to it. HSTS: browsers are told to use HTTPS only.
      </p>
      {rows.length === 0 && (
        <p className="muted small">
          None: the service is reached as its compose file publishes it.
        </p>
      )}
      {rows.map((row, i) => (
        <RouteRowFields
          key={i}
          n={i + 1}
          row={row}
          error={error}
          onChange={(patch) => update(i, patch)}
          onRemove={() => onChange(rows.filter((_, j) => j !== i))}
        />
      ))}
      {listProblems.length > 0 && <p className="field-problem">{listProblems.join('. ')}</p>}
      <button
        type="button"
        className="button"
        disabled={rows.length >= MAX_ROUTES}
        onClick={() => onChange([...rows, BLANK])}
      >
        Add a route
      </button>
    </fieldset>
  );
}

function RouteRowFields({
  n,
  row,
  error,
  onChange,
  onRemove,
}: {
  n: number;
  row: RouteRow;
  error: unknown;
  onChange: (patch: Partial<RouteRow>) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const at = `routes.${n - 1}`;
  const problems = issuesFor(error, at);
  const problemId = problems.length ? `${id}-problem` : undefined;
  const invalid = (field: string) =>
    issuesFor(error, `${at}.${field}`).length > 0
      ? { 'aria-invalid': true, 'aria-describedby': problemId }
      : {};
  const text = (
    field: 'domain' | 'pathPrefix' | 'service' | 'port',
    label: string,
    extra: InputHTMLAttributes<HTMLInputElement> = {},
  ) => (
    <div className={`route-field route-${field}`}>
      <label htmlFor={`${id}-${field}`}>
        {label}
        <span className="visually-hidden"> of route {n}</span>
      </label>
      <input
        id={`${id}-${field}`}
        value={row[field]}
        onChange={(e) => onChange({ [field]: e.target.value })}
        {...invalid(field)}
        {...extra}
      />
    </div>
  );
  return (
    <div className="route-row">
      {text('domain', 'Domain', {
        placeholder: 'app.example.com',
        autoCapitalize: 'none',
        spellCheck: false,
      })}
      {text('pathPrefix', 'Path prefix', { placeholder: '/api (optional)', spellCheck: false })}
      {text('service', 'Compose service', { placeholder: 'web', spellCheck: false })}
      {text('port', 'Container port', { type: 'number', min: 1, max: 65535, inputMode: 'numeric' })}
      <div className="route-options">
        <label className="check">
          <input
            type="checkbox"
            checked={row.https}
            onChange={(e) =>
              onChange({ https: e.target.checked, hsts: e.target.checked && row.hsts })
            }
            {...invalid('tls')}
          />
          HTTPS<span className="visually-hidden"> for route {n}</span>
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={row.hsts}
            disabled={!row.https}
            onChange={(e) => onChange({ hsts: e.target.checked })}
            {...invalid('hsts')}
          />
          HSTS<span className="visually-hidden"> for route {n}</span>
        </label>
        <button type="button" className="link-button" onClick={onRemove}>
          Remove<span className="visually-hidden"> route {n}</span>
        </button>
      </div>
      {problemId && (
        <p className="field-problem" id={problemId}>
          Route {n}: {problems.map((p) => p.message).join('. ')}
        </p>
      )}
    </div>
  );
}
