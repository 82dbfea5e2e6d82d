import type { ICommandHandler } from '@nestjs/cqrs';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { ServerIdInput } from '../images/image-inputs.js';
import { EdgeProxy, type EdgeSyncOutcome } from './edge-proxy.js';

export class SyncServerEdge extends ProcedureCommand<ServerIdInput, EdgeSyncOutcome> {}

/**
 * Rebuilds a server's edge proxy from the event store's routes at any time: safe to repeat, and
 * what to run after the proxy was removed or changed by hand (the periodic watch does it too).
 */
@Procedure.command(SyncServerEdge, {
  name: 'syncServerEdge',
  roles: DEPLOYERS,
  scopes: ['server:write'],
  input: ServerIdInput,
  description:
    'Brings a server’s edge proxy (Caddy) to the configuration its services’ routes derive: starts, restarts or upgrades it when needed, loads a changed configuration, joins routed containers; idempotent, recorded.',
  project: { server: 'serverId' },
})
export class SyncServerEdgeHandler implements ICommandHandler<SyncServerEdge> {
  constructor(private readonly edge: EdgeProxy) {}

  execute({ input, ctx }: SyncServerEdge): Promise<EdgeSyncOutcome> {
    return this.edge.sync(input.serverId, 'manual', ctx);
  }
}
