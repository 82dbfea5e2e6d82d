import { inProjects } from '../../readstore/read-page.js';
import type { IQueryHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import type { ServerEdgeDoc } from '../../../projections/server-edges.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { serverView, type ServerView } from '../deployment-views.js';

export class ServerIdInput {
  @IsUUID()
  serverId!: string;
}

export interface ServerDetailsAnswer extends ServerView {
  /** Its services, oldest first, archived ones too. */
  services: (Pick<ServiceDoc, 'id' | 'name' | 'environment' | 'currentImage'> & {
    status: 'active' | 'archived';
    routes: NonNullable<ServiceDoc['routes']>;
  })[];
  /** Its edge proxy as last synced (a change or a failure), null before the first sync. */
  edge: ServerEdgeState | null;
}

/** What `server_edges` holds of a server's proxy. */
export interface ServerEdgeState {
  routes: number;
  configSha256: string;
  actions: string[];
  reason: ServerEdgeDoc['reason'];
  ok: boolean;
  failure: string | null;
  syncedAt: string;
  lastOkAt: string | null;
}

const edgeState = (doc: ServerEdgeDoc): ServerEdgeState => ({
  routes: doc.routes,
  configSha256: doc.configSha256,
  actions: doc.actions,
  reason: doc.reason,
  ok: doc.ok,
  failure: doc.failure,
  syncedAt: doc.syncedAt,
  lastOkAt: doc.lastOkAt,
});

export class ServerDetails extends ProcedureQuery<ServerIdInput, ServerDetailsAnswer> {}

/** One server (404 when unknown) and its services; never its key. */
@Procedure.read(ServerDetails, {
  name: 'serverDetails',
  roles: EVERYONE,
  readModelsOnly: true,
  scopes: ['server:read'],
  input: ServerIdInput,
  description:
    'One server: connection settings (never its key), status, last check, its services and their routes, and its edge proxy’s last sync.',
  project: { server: 'serverId' },
  // A server can host services of other projects: only the caller's are listed with it.
  projectList: true,
})
export class ServerDetailsHandler implements IQueryHandler<ServerDetails> {
  constructor(private readonly lookup: DeploymentLookup) {}

  async execute({ input, ctx }: ServerDetails): Promise<ServerDetailsAnswer> {
    const server = await this.lookup.server(input.serverId);
    const services = await this.lookup.reads
      .collection<ServiceDoc>('services')
      .find(
        { serverId: server.id, ...inProjects(ctx.readableProjects) },
        { sort: { registeredAt: 1 }, limit: 1000 },
      );
    const edge = await this.lookup.reads.collection<ServerEdgeDoc>('server_edges').get(server.id);
    return {
      ...serverView(server),
      edge: edge ? edgeState(edge) : null,
      services: services.items.map((s) => ({
        id: s.id,
        name: s.name,
        environment: s.environment,
        status: s.status ?? 'active',
        currentImage: s.currentImage,
        routes: s.routes ?? [],
      })),
    };
  }
}
