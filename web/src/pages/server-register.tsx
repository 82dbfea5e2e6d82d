import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { mutate } from '../api/client';
import { TextAreaField } from '../components/fields';
import { Field, FormError, SubmitButton } from '../components/form';
import { ScanResult, useScan } from './server-host-key';

const SERVER_FIELDS = ['name', 'host', 'sshPort', 'sshUser', 'privateKey', 'hostKeyFingerprint'];

/** The form that registers a server, with a button that fetches its host key to compare. */
export function RegisterServer({ onDone }: { onDone: () => void }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState({
    name: '',
    host: '',
    sshPort: '22',
    sshUser: 'deploy',
    privateKey: '',
    hostKeyFingerprint: '',
  });
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  const scan = useScan();
  const register = useMutation({
    mutationFn: () =>
      mutate('registerServer', {
        name: form.name,
        host: form.host,
        sshPort: Number(form.sshPort),
        sshUser: form.sshUser,
        privateKey: form.privateKey,
        hostKeyFingerprint: form.hostKeyFingerprint,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['infrastructureInventory'] });
      onDone();
    },
  });
  const fetchKey = async () => {
    const result = await scan.mutateAsync({ host: form.host, port: Number(form.sshPort) });
    if (result.ok && result.fingerprint) set('hostKeyFingerprint')(result.fingerprint);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    register.mutate();
  };
  const error = register.error ?? scan.error;
  return (
    <form
      className="card form"
      onSubmit={submit}
      aria-labelledby="register-server-title"
      noValidate
    >
      <h2 id="register-server-title">Register a server</h2>
      <FormError error={error} fields={[...SERVER_FIELDS, 'port']} />
      <Field
        name="name"
        label="Name"
        value={form.name}
        onChange={(e) => set('name')(e.target.value)}
        hint="Lower-case letters, digits, . _ -"
        error={register.error}
        required
      />
      <div className="field-pair">
        <Field
          name="host"
          label="Host"
          value={form.host}
          onChange={(e) => set('host')(e.target.value)}
          error={error}
          required
        />
        <Field
          name="sshPort"
          label="SSH port"
          inputMode="numeric"
          value={form.sshPort}
          onChange={(e) => set('sshPort')(e.target.value)}
          error={register.error}
        />
      </div>
      <Field
        name="sshUser"
        label="SSH user"
        value={form.sshUser}
        onChange={(e) => set('sshUser')(e.target.value)}
        error={register.error}
        required
      />
      <TextAreaField
        name="privateKey"
        label="Private key"
        rows={4}
        value={form.privateKey}
        onChange={(e) => set('privateKey')(e.target.value)}
        hint="PEM (-----BEGIN … PRIVATE KEY-----). Sealed by the server, never shown again."
        error={register.error}
        required
      />
      <Field
        name="hostKeyFingerprint"
        label="Host key fingerprint"
        value={form.hostKeyFingerprint}
        onChange={(e) => set('hostKeyFingerprint')(e.target.value)}
        hint="SHA256:… as ssh-keygen -lf prints it. Fetch it from the host, then compare it with what the host's owner reads on the machine."
        error={register.error}
        required
      />
      <div className="button-row">
        <button
          type="button"
          className="button"
          onClick={() => void fetchKey().catch(() => undefined)}
          disabled={scan.isPending || !form.host}
        >
          {scan.isPending ? 'Fetching…' : 'Fetch the host key'}
        </button>
        <SubmitButton pending={register.isPending}>Register the server</SubmitButton>
      </div>
      {scan.data && <ScanResult scan={scan.data} />}
    </form>
  );
}
