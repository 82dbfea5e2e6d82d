import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { AnswerOf } from '../api/answers';
import { mutate } from '../api/client';
import type { ProcedureInputs } from '../api/contract';
import { EnvEditor, type EnvRow } from '../components/env-editor';
import { SelectField, TextAreaField } from '../components/fields';
import { Field, FormError, SubmitButton } from '../components/form';
import { RouteFields, routeInput, routeRows, type RouteRow } from './route-fields';

type Inventory = AnswerOf<'infrastructureInventory'>;
type Service = Inventory['servers'][number]['services'][number];
type Rule = NonNullable<ProcedureInputs['registerService']['approvalRule']>;

const RULES: { value: Rule; label: string }[] = [
  { value: 'none', label: 'No approval' },
  { value: 'agents', label: 'Approval for deploys by agents' },
  { value: 'all-but-admins', label: 'Approval for everyone but owners and admins' },
];
const FIELDS = ['name', 'environment', 'serverId', 'imageRepository', 'compose', 'env', 'routes'];
const COMPOSE_EXAMPLE =
  'services:\n  web:\n    image: ghcr.io/acme/web:1.0.0\n    ports: ["8080:80"]\n';

/**
 * Registers a service, or changes one (`service` given). The environment is sent only when it
 * was edited: secret values come back masked, so an edit of the environment re-enters them.
 * The routes too are sent only when edited (they replace the list before them).
 */
export function ServiceForm({
  inventory,
  service,
  onDone,
  onCancel,
}: {
  inventory: Inventory;
  service?: Service;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState({
    name: service?.name ?? '',
    environment: service?.environment ?? 'production',
    serverId: service?.serverId ?? inventory.servers[0]?.id ?? '',
    imageRepository: service?.imageRepository ?? '',
    compose: service ? '' : COMPOSE_EXAMPLE,
    approvalRule: (service?.approvalRule ?? 'none') as Rule,
  });
  const [env, setEnv] = useState<EnvRow[]>(
    service
      ? service.env.map((v) => ({ name: v.name, value: v.secret ? '' : v.value, secret: v.secret }))
      : [],
  );
  const [envEdited, setEnvEdited] = useState(!service);
  const [routes, setRoutes] = useState<RouteRow[]>(routeRows(service?.routes ?? []));
  const [routesEdited, setRoutesEdited] = useState(false);
  const editRoutes = (rows: RouteRow[]) => {
    setRoutes(rows);
    setRoutesEdited(true);
  };
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });

  const save = useMutation({
    mutationFn: async () => {
      const envInput = env.map(({ name, value, secret }) => ({ name, value, secret }));
      if (!service) {
        await mutate('registerService', {
          ...form,
          env: envInput,
          ...(routes.length ? { routes: routeInput(routes) } : {}),
        });
        return `Service ${form.name} registered.`;
      }
      await mutate('updateService', {
        serviceId: service.id,
        serverId: form.serverId,
        imageRepository: form.imageRepository,
        approvalRule: form.approvalRule,
        ...(form.compose ? { compose: form.compose } : {}),
        ...(envEdited ? { env: envInput } : {}),
        ...(routesEdited ? { routes: routeInput(routes) } : {}),
      });
      return `Service ${service.name} updated; the next deployment uses it.`;
    },
    onSuccess: (message) => {
      void queryClient.invalidateQueries({ queryKey: ['infrastructureInventory'] });
      if (service) void queryClient.invalidateQueries({ queryKey: ['serviceDetails', service.id] });
      onDone(message);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const title = service ? `Change ${service.name}` : 'Register a service';
  const titleId = service ? `edit-${service.id}` : 'register-service-title';
  return (
    <form className="card form" onSubmit={submit} aria-labelledby={titleId} noValidate>
      <h2 id={titleId}>{title}</h2>
      <FormError error={save.error} fields={FIELDS} />
      {!service && (
        <div className="field-pair">
          <Field
            name="name"
            label="Name"
            value={form.name}
            onChange={(e) => set('name')(e.target.value)}
            error={save.error}
            required
          />
          <Field
            name="environment"
            label="Environment"
            value={form.environment}
            onChange={(e) => set('environment')(e.target.value)}
            error={save.error}
            required
          />
        </div>
      )}
      <SelectField
        name="serverId"
        label="Server"
        value={form.serverId}
        onChange={(e) => set('serverId')(e.target.value)}
        options={inventory.servers.map((s) => ({
          value: s.id,
          label: `${s.name} (${s.host})${s.hostKeyApproved ? '' : ', host key not approved'}`,
        }))}
        error={save.error}
      />
      <Field
        name="imageRepository"
        label="Image repository"
        value={form.imageRepository}
        placeholder="ghcr.io/acme/web"
        onChange={(e) => set('imageRepository')(e.target.value)}
        hint="Deploys name a tag of this repository."
        error={save.error}
        required
      />
      <TextAreaField
        name="compose"
        label="Compose file"
        rows={7}
        value={form.compose}
        onChange={(e) => set('compose')(e.target.value)}
        hint={
          service
            ? 'Leave empty to keep the current one; a new one replaces it.'
            : 'Checked against the server’s compose policy.'
        }
        error={save.error}
      />
      {envEdited ? (
        <EnvEditor rows={env} onChange={setEnv} error={save.error} />
      ) : (
        <div className="field">
          <p className="label">Environment variables</p>
          <p className="muted small">
            {service?.env.map((v) => `${v.name}${v.secret ? ' (secret)' : ''}`).join(', ') ||
              'None.'}
          </p>
          <button type="button" className="button" onClick={() => setEnvEdited(true)}>
            Edit the environment
          </button>
          <p className="field-hint">Secret values are not shown: an edit re-enters them.</p>
        </div>
      )}
      <RouteFields rows={routes} onChange={editRoutes} error={save.error} />
      <SelectField
        name="approvalRule"
        label="Approval rule"
        value={form.approvalRule}
        onChange={(e) => set('approvalRule')(e.target.value)}
        options={RULES}
        hint="Who needs a second person’s approval to deploy or roll back."
        error={save.error}
      />
      <div className="button-row">
        <SubmitButton pending={save.isPending}>
          {service ? 'Save' : 'Register the service'}
        </SubmitButton>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
