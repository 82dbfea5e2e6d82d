import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCan } from '../api/access';
import { mutate, query } from '../api/client';
import { FormError } from '../components/form';
import { When } from '../components/time';

/**
 * A server's edge proxy: the routes its services declare, the last sync (a change or a failure)
 * and, for those who may, a button that syncs it now.
 */
export function ServerEdge({ serverId }: { serverId: string }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const details = useQuery({
    queryKey: ['serverDetails', serverId],
    queryFn: () => query('serverDetails', { serverId }),
  });
  const sync = useMutation({
    mutationFn: () => mutate('syncServerEdge', { serverId }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['serverDetails', serverId] }),
  });
  if (!details.data) return <FormError error={details.error} />;
  const { edge, services } = details.data;
  const routes = services
    .filter((s) => s.status === 'active')
    .flatMap((s) => s.routes.map((r) => ({ ...r, owner: `${s.name} (${s.environment})` })));
  return (
    <div className="edge" aria-label="Edge proxy">
      <h3>Edge proxy</h3>
      {routes.length === 0 && !edge ? (
        <p className="muted">
          No route: services on this server are reached as their compose files publish them.
        </p>
      ) : (
        <>
          <ul className="routes">
            {routes.map((r) => (
              <li key={`${r.domain}${r.pathPrefix ?? ''}`}>
                <code>
                  {r.domain}
                  {r.pathPrefix ?? ''}
                </code>{' '}
                → {r.owner},{' '}
                <code>
                  {r.service}:{r.port}
                </code>
              </li>
            ))}
          </ul>
          <p>
            {edge ? (
              <>
                Last sync {edge.ok ? 'succeeded' : 'failed'} ({edge.reason}
                {edge.actions.length ? `: ${edge.actions.join(', ')}` : ''}),{' '}
                <When at={edge.syncedAt} />
                {edge.failure && <span className="error-text"> {edge.failure}</span>}
              </>
            ) : (
              <span className="muted">Not synced yet.</span>
            )}
          </p>
        </>
      )}
      {can('syncServerEdge') && (
        <div className="button-row">
          <button
            type="button"
            className="button"
            disabled={sync.isPending}
            onClick={() => sync.mutate()}
          >
            {sync.isPending ? 'Syncing…' : 'Sync the edge proxy'}
          </button>
        </div>
      )}
      <FormError error={sync.error} />
      {sync.data && (
        <p role="status">
          {sync.data.routes} route{sync.data.routes === 1 ? '' : 's'};{' '}
          {sync.data.actions.length ? sync.data.actions.join(', ') : 'already in sync'}
        </p>
      )}
    </div>
  );
}
