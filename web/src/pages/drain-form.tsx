import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { mutate } from '../api/client';
import type { ProcedureInputs } from '../api/contract';
import { Done, SelectField, TextAreaField } from '../components/fields';
import { Field, FormError, SubmitButton } from '../components/form';

type Input = ProcedureInputs['configureDrain'];
export type DrainKind = Input['kind'];
export type DrainSource = Input['sources'][number];
type StartAt = NonNullable<Input['startAt']>;

export const DRAIN_SOURCES: { value: DrainSource; label: string }[] = [
  { value: 'audit', label: 'Audit trail' },
  { value: 'deployment-logs', label: 'Deployment output' },
];

export const KIND_LABEL: Record<DrainKind, string> = {
  syslog: 'Syslog over TLS',
  otlp: 'OpenTelemetry (OTLP logs)',
};

const ENDPOINT_HINT: Record<DrainKind, string> = {
  syslog: 'tls://host:port (6514 is the usual port); the certificate must name the host.',
  otlp: 'The whole https URL of the logs endpoint, e.g. https://otel.example.com:4318/v1/logs (plain http only on a loopback address).',
};

/** The fields this form shows; issues for any other path are listed by `FormError`. */
const FIELDS = [
  'drainId',
  'displayName',
  'kind',
  'endpoint',
  'caCertificate',
  'headers.0.name',
  'headers.0.value',
  'startAt',
];

/**
 * A new drain: its id, name, kind, endpoint, sources, an optional private CA and, for OTLP, one
 * header (an API key, say) whose value is stored sealed and never shown again. An id `taken` by
 * a drain is refused here: configuring it would replace that drain whole.
 */
export function DrainForm({ taken }: { taken: string[] }) {
  const queryClient = useQueryClient();
  const [drainId, setDrainId] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [kind, setKind] = useState<DrainKind>('otlp');
  const [endpoint, setEndpoint] = useState('');
  const [sources, setSources] = useState<DrainSource[]>(['audit']);
  const [caCertificate, setCaCertificate] = useState('');
  const [headerName, setHeaderName] = useState('');
  const [headerValue, setHeaderValue] = useState('');
  const [startAt, setStartAt] = useState<StartAt>('now');

  const inputOf = (): Input => {
    const ca = caCertificate.trim();
    const header = kind === 'otlp' && (headerName.trim() !== '' || headerValue !== '');
    return {
      drainId: drainId.trim(),
      displayName: displayName.trim(),
      kind,
      endpoint: endpoint.trim(),
      sources,
      startAt,
      ...(ca ? { caCertificate: ca } : {}),
      ...(header ? { headers: [{ name: headerName.trim(), value: headerValue }] } : {}),
    };
  };
  const save = useMutation({
    mutationFn: (input: Input) => mutate('configureDrain', input),
    onSuccess: () => {
      setDrainId('');
      setDisplayName('');
      setEndpoint('');
      setCaCertificate('');
      setHeaderName('');
      setHeaderValue('');
      void queryClient.invalidateQueries({ queryKey: ['drains'] });
    },
  });
  const clash = taken.includes(drainId.trim())
    ? 'is the id of a drain already: pick another, or remove that drain first'
    : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!clash) save.mutate(inputOf());
  };
  const toggle = (s: DrainSource, on: boolean) =>
    setSources(on ? [...sources, s] : sources.filter((x) => x !== s));

  return (
    <>
      <h3>Add a drain</h3>
      <form onSubmit={submit} aria-label="Add a drain" noValidate>
        <FormError error={save.error} fields={FIELDS} />
        <div className="field-pair">
          <Field
            name="displayName"
            label="Name"
            value={displayName}
            onChange={(e) => setDisplayName(e.target.value)}
            error={save.error}
            required
          />
          <Field
            name="drainId"
            label="Drain id"
            value={drainId}
            onChange={(e) => setDrainId(e.target.value)}
            hint="1-40 lower-case letters, digits and -."
            autoComplete="off"
            spellCheck={false}
            error={save.error}
            problem={clash}
            required
          />
        </div>
        <SelectField
          name="kind"
          label="Kind"
          value={kind}
          onChange={(e) => setKind(e.target.value as DrainKind)}
          options={[
            { value: 'otlp', label: KIND_LABEL.otlp },
            { value: 'syslog', label: `${KIND_LABEL.syslog} (RFC 5424)` },
          ]}
          error={save.error}
        />
        <Field
          name="endpoint"
          label="Endpoint"
          value={endpoint}
          onChange={(e) => setEndpoint(e.target.value)}
          hint={ENDPOINT_HINT[kind]}
          autoComplete="off"
          spellCheck={false}
          error={save.error}
          required
        />
        <fieldset className="checkbox-group">
          <legend>Sends</legend>
          {DRAIN_SOURCES.map((s) => (
            <label key={s.value} className="checkbox">
              <input
                type="checkbox"
                checked={sources.includes(s.value)}
                onChange={(e) => toggle(s.value, e.target.checked)}
              />{' '}
              {s.label}
            </label>
          ))}
        </fieldset>
        {kind === 'otlp' && (
          <div className="field-pair">
            <Field
              name="headers.0.name"
              label="Header name (optional)"
              value={headerName}
              onChange={(e) => setHeaderName(e.target.value)}
              hint="Sent with every request, e.g. authorization or x-api-key."
              autoComplete="off"
              spellCheck={false}
              error={save.error}
            />
            <Field
              name="headers.0.value"
              label="Header value"
              type="password"
              value={headerValue}
              onChange={(e) => setHeaderValue(e.target.value)}
              hint="Stored sealed; never shown again."
              autoComplete="new-password"
              error={save.error}
            />
          </div>
        )}
        <TextAreaField
          name="caCertificate"
          label="CA certificate (optional)"
          rows={3}
          value={caCertificate}
          onChange={(e) => setCaCertificate(e.target.value)}
          placeholder="-----BEGIN CERTIFICATE-----"
          hint="PEM, up to 10 certificates: trusted for this endpoint instead of the system's roots (a private CA)."
          error={save.error}
        />
        <SelectField
          name="startAt"
          label="Start at"
          value={startAt}
          onChange={(e) => setStartAt(e.target.value as StartAt)}
          options={[
            { value: 'now', label: 'Now: what happens from here on' },
            { value: 'beginning', label: 'The beginning: the whole history first' },
          ]}
          error={save.error}
        />
        <SubmitButton pending={save.isPending}>Add the drain</SubmitButton>
      </form>
      {save.data && (
        <div className="after-form">
          <Done>
            <p>
              {save.data.changed
                ? `Drain ${save.data.drainId} saved: it shows below.`
                : `Drain ${save.data.drainId} was already set up this way.`}
            </p>
          </Done>
        </div>
      )}
    </>
  );
}
