import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { AnswerOf } from '../api/answers';
import { useCan } from '../api/access';
import { mutate, query } from '../api/client';
import { Confirm } from '../components/confirm';
import { SelectField } from '../components/fields';
import { Field, FormError, SubmitButton } from '../components/form';
import { Loading } from '../components/page';
import { SecretOnce } from '../components/secret-once';
import { StatusBadge } from '../components/status';

type Hook = AnswerOf<'deployWebhooks'>['items'][number];

function HookForm({ serviceId, repository }: { serviceId: string; repository: string }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [source, setSource] = useState<'tag' | 'image'>('tag');
  const [pattern, setPattern] = useState('*');
  const [image, setImage] = useState(`${repository}:{version}`);
  const create = useMutation({
    mutationFn: () =>
      mutate('createDeployWebhook', { serviceId, name, rules: [{ source, pattern, image }] }),
    onSuccess: () => {
      setName('');
      void queryClient.invalidateQueries({ queryKey: ['deployWebhooks', serviceId] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <>
      <h3>Add a webhook</h3>
      {create.data && (
        <div className="after-form">
          <div className="alert alert-warning">
            <p>
              <strong>The URL of this webhook:</strong> <code>{create.data.url}</code>
            </p>
          </div>
          <SecretOnce label="Its signing secret." value={create.data.secret} />
        </div>
      )}
      <form onSubmit={submit} aria-label="Add a deploy webhook" noValidate>
        <Field
          name="name"
          label="Hook name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={create.error}
          required
        />
        <SelectField
          name="rules.0.source"
          label="Match on"
          value={source}
          onChange={(e) => setSource(e.target.value as 'tag' | 'image')}
          options={[
            { value: 'tag', label: 'the pushed tag' },
            { value: 'image', label: 'the pushed image' },
          ]}
          error={create.error}
        />
        <Field
          name="rules.0.pattern"
          label="Pattern"
          value={pattern}
          onChange={(e) => setPattern(e.target.value)}
          hint="Letters, digits, . _ - and * (e.g. v* or *)."
          error={create.error}
        />
        <Field
          name="rules.0.image"
          label="Image to deploy"
          value={image}
          onChange={(e) => setImage(e.target.value)}
          hint="{version} stands for the matched tag."
          error={create.error}
        />
        <FormError error={create.error} fields={['name', 'rules']} />
        <SubmitButton pending={create.isPending}>Add the webhook</SubmitButton>
      </form>
    </>
  );
}

function HookRow({ hook }: { hook: Hook }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const revoke = useMutation({
    mutationFn: () => mutate('revokeDeployWebhook', { hookId: hook.hookId }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['deployWebhooks'] }),
  });
  return (
    <li>
      <p>
        <strong>{hook.name}</strong> <StatusBadge status={hook.status} />{' '}
        <span className="muted small">
          {hook.rules.map((r) => `${r.source} ${r.pattern} → ${r.image}`).join('; ')}
        </span>
      </p>
      {can('revokeDeployWebhook') &&
        hook.status === 'active' &&
        (asking ? (
          <Confirm
            question={`Revoke ${hook.name}?`}
            pending={revoke.isPending}
            onConfirm={() => revoke.mutate()}
            onKeep={() => setAsking(false)}
          >
            Yes, revoke {hook.name}
          </Confirm>
        ) : (
          <button type="button" className="button danger" onClick={() => setAsking(true)}>
            Revoke {hook.name}…
          </button>
        ))}
      <FormError error={revoke.error} />
    </li>
  );
}

/** A service's inbound deploy webhooks: listed, added (URL and secret shown once), revoked. */
export function ServiceHooks({ serviceId, repository }: { serviceId: string; repository: string }) {
  const can = useCan();
  const hooks = useQuery({
    queryKey: ['deployWebhooks', serviceId],
    queryFn: () => query('deployWebhooks', { serviceId, limit: 100 }),
  });
  return (
    <>
      {hooks.isPending ? (
        <Loading what="webhooks" />
      ) : hooks.isError ? (
        <FormError error={hooks.error} />
      ) : hooks.data.items.length === 0 ? (
        <p className="muted">No deploy webhook: a registry or CI can deploy through one.</p>
      ) : (
        <ul className="plain-list" aria-label="Deploy webhooks">
          {hooks.data.items.map((h) => (
            <HookRow key={h.hookId} hook={h} />
          ))}
        </ul>
      )}
      {can('createDeployWebhook') && <HookForm serviceId={serviceId} repository={repository} />}
    </>
  );
}
