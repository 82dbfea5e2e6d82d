import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AnswerOf } from '../api/answers';
import { mutate } from '../api/client';
import { FormError } from '../components/form';
import { CheckReport } from './server-check';

type Server = AnswerOf<'infrastructureInventory'>['servers'][number];

/** Fetches the fingerprint a host presents (key exchange only) so a person can compare it. */
export function useScan() {
  return useMutation({
    mutationFn: (target: { host: string; port?: number }) => mutate('scanServerHostKey', target),
  });
}

/** What a host presented when its key was fetched, or why none came. */
export function ScanResult({ scan }: { scan: AnswerOf<'scanServerHostKey'> }) {
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

/** Approving a host key: the pinned fingerprint beside what the host presents now. */
export function ApproveHostKey({ server }: { server: Server }) {
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
