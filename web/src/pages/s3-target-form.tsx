import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { mutate } from '../api/client';
import type { ProcedureInputs } from '../api/contract';
import { Field, FormError, SubmitButton } from '../components/form';
import type { S3Target } from './backup-types';

type TargetInput = ProcedureInputs['configureS3Target'];

const FIELDS = [
  'targetId',
  'displayName',
  'endpoint',
  'region',
  'bucket',
  'prefix',
  'accessKeyId',
  'secretAccessKey',
];

const text = (form: FormData, name: string) => String(form.get(name) ?? '').trim();

function inputOf(form: FormData): TargetInput {
  const endpoint = text(form, 'endpoint');
  const prefix = text(form, 'prefix');
  // Typed as is: a secret may begin or end with what trim() would take away.
  const secret = String(form.get('secretAccessKey') ?? '');
  return {
    targetId: text(form, 'targetId'),
    displayName: text(form, 'displayName'),
    ...(endpoint ? { endpoint } : {}),
    region: text(form, 'region'),
    bucket: text(form, 'bucket'),
    ...(prefix ? { prefix } : {}),
    accessKeyId: text(form, 'accessKeyId'),
    ...(secret ? { secretAccessKey: secret } : {}),
  };
}

/**
 * An S3 target added or changed (`configureS3Target`, whole). The secret access key is typed
 * here and sent once; it is stored sealed and never answered, so a change leaves it empty to keep
 * the stored one. The form is emptied once saved, the secret with it.
 */
export function S3TargetForm({
  editing,
  onDone,
}: {
  editing: S3Target | null;
  /** Called once saved, with what the server answered. */
  onDone: (saved: { targetId: string; changed: boolean }) => void;
}) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (input: TargetInput) => mutate('configureS3Target', input),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: ['s3Targets'] });
      onDone(saved);
    },
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    save.mutate(inputOf(new FormData(form)), { onSuccess: () => form.reset() });
  };
  const error = save.error;
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={editing ? `Change S3 target ${editing.targetId}` : 'Add an S3 target'}
    >
      <div className="field-pair">
        <Field
          name="displayName"
          label="Name"
          defaultValue={editing?.displayName}
          error={error}
          required
        />
        <Field
          name="targetId"
          label="Target id"
          hint="Lower-case letters, digits and -; schedules name it."
          defaultValue={editing?.targetId}
          readOnly={editing !== null}
          autoComplete="off"
          spellCheck={false}
          error={error}
          required
        />
      </div>
      <Field
        name="endpoint"
        label="Endpoint (optional)"
        hint="The S3 API's https URL for S3-compatible storage (MinIO, R2, B2…); empty: AWS S3."
        defaultValue={editing?.endpoint ?? ''}
        placeholder="https://s3.example.com"
        autoComplete="off"
        spellCheck={false}
        error={error}
      />
      <div className="field-row">
        <Field
          name="region"
          label="Region"
          defaultValue={editing?.region ?? 'us-east-1'}
          autoComplete="off"
          spellCheck={false}
          error={error}
          required
        />
        <Field
          name="bucket"
          label="Bucket"
          defaultValue={editing?.bucket}
          autoComplete="off"
          spellCheck={false}
          error={error}
          required
        />
        <Field
          name="prefix"
          label="Key prefix (optional)"
          hint="Ends with /, e.g. slipway/."
          defaultValue={editing?.prefix}
          autoComplete="off"
          spellCheck={false}
          error={error}
        />
      </div>
      <div className="field-pair">
        <Field
          name="accessKeyId"
          label="Access key id"
          defaultValue={editing?.accessKeyId}
          autoComplete="off"
          spellCheck={false}
          error={error}
          required
        />
        <Field
          name="secretAccessKey"
          label="Secret access key"
          type="password"
          autoComplete="new-password"
          hint={
            editing
              ? 'Leave empty to keep the one stored; it is never shown.'
              : 'Stored sealed; never shown again.'
          }
          error={error}
          required={editing === null}
        />
      </div>
      <FormError error={error} fields={FIELDS} />
      <SubmitButton pending={save.isPending}>
        {editing ? 'Save the S3 target' : 'Add the S3 target'}
      </SubmitButton>
    </form>
  );
}
