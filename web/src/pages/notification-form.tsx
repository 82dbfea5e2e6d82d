import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { mutate } from '../api/client';
import type { ProcedureInputs } from '../api/contract';
import { Done, SelectField } from '../components/fields';
import { Field, FormError, SubmitButton } from '../components/form';
import { SecretOnce } from '../components/secret-once';

type Input = ProcedureInputs['createNotificationChannel'];
type Kind = Input['kind'];
export type Subject = Input['subscriptions'][number];

export const SUBJECTS: Subject[] = [
  'deployment.succeeded',
  'deployment.failed',
  'deployment.cancelled',
  'approval.requested',
  'approval.decided',
  'backup.failed',
  'audit.verification-failed',
  'token.expiring',
  'certificate.failed',
  'certificate.expiring',
  'security.break-glass',
  'job.failed',
  'alert.raised',
  'alert.resolved',
];

const TARGET_HINT: Record<Kind, string> = {
  webhook: 'An https URL; each POST is signed with the secret shown once after creation.',
  email: 'An email address.',
  slack: 'A Slack incoming-webhook URL.',
};

/** A new channel: name, kind, target and the events it receives; a webhook's secret shown once. */
export function NotificationChannelForm() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Kind>('webhook');
  const [target, setTarget] = useState('');
  const [subscriptions, setSubscriptions] = useState<Subject[]>(['deployment.failed']);
  const create = useMutation({
    mutationFn: () => mutate('createNotificationChannel', { name, kind, target, subscriptions }),
    onSuccess: () => {
      setName('');
      setTarget('');
      void queryClient.invalidateQueries({ queryKey: ['notificationChannels'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  const toggle = (s: Subject, on: boolean) =>
    setSubscriptions(on ? [...subscriptions, s] : subscriptions.filter((x) => x !== s));
  return (
    <>
      <h2>Add a channel</h2>
      <form onSubmit={submit} aria-label="Add a notification channel" noValidate>
        <Field
          name="name"
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={create.error}
          required
        />
        <SelectField
          name="kind"
          label="Kind"
          value={kind}
          onChange={(e) => setKind(e.target.value as Kind)}
          options={[
            { value: 'webhook', label: 'Webhook (signed POST)' },
            { value: 'email', label: 'Email' },
            { value: 'slack', label: 'Slack' },
          ]}
          error={create.error}
        />
        <Field
          name="target"
          label="Target"
          value={target}
          onChange={(e) => setTarget(e.target.value)}
          hint={TARGET_HINT[kind]}
          error={create.error}
          required
        />
        <fieldset className="checkbox-group">
          <legend>Events</legend>
          {SUBJECTS.map((s) => (
            <label key={s} className="checkbox">
              <input
                type="checkbox"
                checked={subscriptions.includes(s)}
                onChange={(e) => toggle(s, e.target.checked)}
              />{' '}
              {s}
            </label>
          ))}
        </fieldset>
        <FormError error={create.error} fields={['name', 'kind', 'target']} />
        <SubmitButton pending={create.isPending}>Add the channel</SubmitButton>
      </form>
      {create.data && (
        <div className="after-form">
          <Done>
            <p>Channel {create.data.name} added.</p>
          </Done>
          {create.data.secret && (
            <SecretOnce label="The signing secret of this webhook." value={create.data.secret} />
          )}
        </div>
      )}
    </>
  );
}
