import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { AnswerOf } from '../api/answers';
import { useCan } from '../api/access';
import { mutate, query } from '../api/client';
import { Done, TextAreaField } from '../components/fields';
import { Field, FormError, SubmitButton } from '../components/form';
import { EmptyState, Loading, Page } from '../components/page';
import { StatusBadge } from '../components/status';
import { When } from '../components/time';
import { ServerEdge } from './server-edge';
import { ServerMetrics } from './server-metrics';
import { S3Targets } from './s3-targets';

type Server = AnswerOf<'infrastructureInventory'>['servers'][number];
type Check = AnswerOf<'checkServer'>;

const SERVER_FIELDS = ['name', 'host', 'sshPort', 'sshUser', 'privateKey', 'hostKeyFingerprint'];

/** Fetches the fingerprint a host presents (key exchange only) so a person can compare it. */
function useScan() {
  return useMutation({
    mutationFn: (target: { host: string; port?: number }) => mutate('scanServerHostKey', target),
  });
}

function ScanResult({ scan }: { scan: AnswerOf<'scanServerHostKey'> }) {
  if (!scan.ok || !scan.fingerprint) {
    return (
      <div className="alert alert-error" role="alert">
        <p>
          No host key from {scan.host}:{scan.port}: {scan.error?.message ?? 'no answer'}.
        </p>
      </div>
    );
  }
  return (
    <p className="muted small" role="status">
      {scan.host}:{scan.port} presents the {scan.keyType} key{' '}
      <code className="fingerprint">{scan.fingerprint}</code>
    </p>
  );
}

function RegisterServer({ onDone }: { onDone: () => void }) {
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

function CheckReport({ check }: { check: Check }) {
  const facts = [
    ['reachable', check.reachable],
    ['host key matches', check.hostKeyMatches],
    ['key accepted', check.authenticated],
  ] as const;
  return (
    <div className={check.ok ? 'alert alert-info' : 'alert alert-error'} role="status">
      <p>
        {check.ok ? 'Connected' : 'Not connected'} to {check.target}
        {check.latencyMs !== null && ` in ${check.latencyMs} ms`}
        {check.error && `: ${check.error.message}`}.
      </p>
      <p className="small">
        {facts
          .filter(([, v]) => v !== null)
          .map(([label, v]) => `${label}: ${v ? 'yes' : 'no'}`)
          .join(' · ')}
      </p>
    </div>
  );
}

/** Approving a host key: the pinned fingerprint beside what the host presents now. */
function ApproveHostKey({ server }: { server: Server }) {
  const queryClient = useQueryClient();
  const scan = useScan();
  const approve = useMutation({
    mutationFn: () =>
      mutate('approveServerHostKey', {
        serverId: server.id,
        fingerprint: server.hostKeyFingerprint,
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['infrastructureInventory'] }),
  });
  const scanned = scan.data?.fingerprint ?? null;
  return (
    <div className="approve-key">
      <p>
        Pinned host key: <code className="fingerprint">{server.hostKeyFingerprint}</code>
      </p>
      {scan.data && <ScanResult scan={scan.data} />}
      {scanned && (
        <p className={scanned === server.hostKeyFingerprint ? 'match' : 'mismatch'} role="status">
          {scanned === server.hostKeyFingerprint
            ? 'The host presents the pinned key.'
            : 'The host presents ANOTHER key: do not approve; register the server again with the right one.'}
        </p>
      )}
      <FormError error={approve.error ?? scan.error} />
      <div className="button-row">
        <button
          type="button"
          className="button"
          disabled={scan.isPending}
          onClick={() => scan.mutate({ host: server.host, port: server.sshPort })}
        >
          {scan.isPending ? 'Fetching…' : 'Fetch the host key now'}
        </button>
        <button
          type="button"
          className="button primary"
          disabled={
            approve.isPending || (scanned !== null && scanned !== server.hostKeyFingerprint)
          }
          onClick={() => approve.mutate()}
        >
          Approve this host key
        </button>
      </div>
      {approve.data?.connection && <CheckReport check={approve.data.connection} />}
    </div>
  );
}

function ServerCard({ server }: { server: Server }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const check = useMutation({
    mutationFn: () => mutate('checkServer', { serverId: server.id }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['infrastructureInventory'] }),
  });
  return (
    <section className="card" aria-labelledby={`server-${server.id}`}>
      <div className="card-header">
        <h2 id={`server-${server.id}`}>{server.name}</h2>
        <StatusBadge status={server.hostKeyApproved ? server.status : 'unapproved'} />
      </div>
      <dl className="facts">
        <div>
          <dt>Target</dt>
          <dd>
            <code>
              {server.sshUser}@{server.host}:{server.sshPort}
            </code>
          </dd>
        </div>
        <div>
          <dt>Host key</dt>
          <dd>
            <code className="fingerprint">{server.hostKeyFingerprint}</code>{' '}
            <span className="muted">{server.hostKeyApproved ? 'approved' : 'not approved'}</span>
          </dd>
        </div>
        <div>
          <dt>Last check</dt>
          <dd>
            {server.lastCheck ? (
              <>
                {server.lastCheck.ok ? 'connected' : 'failed'} ({server.lastCheck.mode}),{' '}
                <When at={server.lastCheck.at} />
              </>
            ) : (
              <span className="muted">never</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Services</dt>
          <dd>
            {server.services.length === 0 ? (
              <span className="muted">none yet</span>
            ) : (
              server.services.map((s) => `${s.name} (${s.environment})`).join(', ')
            )}
          </dd>
        </div>
      </dl>
      {!server.hostKeyApproved && can('approveServerHostKey') && <ApproveHostKey server={server} />}
      {server.hostKeyApproved && <ServerEdge serverId={server.id} />}
      {can('checkServer') && (
        <div className="button-row">
          <button
            type="button"
            className="button"
            disabled={check.isPending}
            onClick={() => check.mutate()}
          >
            {check.isPending ? 'Checking…' : 'Check the connection'}
          </button>
        </div>
      )}
      <FormError error={check.error} />
      {check.data && <CheckReport check={check.data} />}
      {server.hostKeyApproved && can('serverMetrics') && <ServerMetrics serverId={server.id} />}
    </section>
  );
}

/** Servers: register one, approve its host key after comparing it, check the connection. */
export function ServersPage() {
  const can = useCan();
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState(false);
  const inventory = useQuery({
    queryKey: ['infrastructureInventory'],
    queryFn: () => query('infrastructureInventory'),
  });
  const mayRegister = can('registerServer');
  return (
    <Page
      title="Servers"
      actions={
        mayRegister &&
        !adding && (
          <button type="button" className="button primary" onClick={() => setAdding(true)}>
            Register a server
          </button>
        )
      }
    >
      {added && <Done>The server is registered. Approve its host key below.</Done>}
      {adding && (
        <RegisterServer
          onDone={() => {
            setAdding(false);
            setAdded(true);
          }}
        />
      )}
      {inventory.isPending ? (
        <Loading what="servers" />
      ) : inventory.isError ? (
        <FormError error={inventory.error} />
      ) : inventory.data.servers.length === 0 ? (
        <EmptyState title="No server yet.">
          <p>
            {mayRegister
              ? 'Register the first one: its SSH address, a user, a private key and the host key fingerprint (Fetch the host key, then compare).'
              : 'An operator, admin or owner registers servers; they appear here.'}
          </p>
        </EmptyState>
      ) : (
        inventory.data.servers.map((s) => <ServerCard key={s.id} server={s} />)
      )}
      <S3Targets />
    </Page>
  );
}
