import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AnswerOf } from '../api/answers';
import { useCan } from '../api/access';
import { mutate } from '../api/client';
import { FormError } from '../components/form';
import { StatusBadge } from '../components/status';
import { When } from '../components/time';
import { CheckReport } from './server-check';
import { ServerEdge } from './server-edge';
import { ApproveHostKey } from './server-host-key';
import { ServerMetrics } from './server-metrics';

type Server = AnswerOf<'infrastructureInventory'>['servers'][number];

/**
 * A registered server: its SSH target, host key, last check and services; approving its host key
 * until it is, then its edge and metrics; and a connection check.
 */
export function ServerCard({ server }: { server: Server }) {
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
