import { Injectable } from '@nestjs/common';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { reportFor, type ConnectionReport } from '../reach/connection-report.js';
import { ServerReach } from '../reach/server-reach.js';
import { ServerStreams } from '../server-streams.js';

export type ServerCheckAnswer = ConnectionReport & {
  serverId: string;
  name: string;
  /** `user@host:port`, as registered. */
  target: string;
  hostKeyFingerprint: string;
};

/**
 * Checks a registered server and records how it came out (ServerConnectionChecked, on the
 * server's stream): with the sealed key once its host key is approved, by key exchange alone
 * before (no credential goes to a host nobody approved yet).
 */
@Injectable()
export class ServerChecks {
  constructor(
    private readonly reach: ServerReach,
    private readonly servers: ServerStreams,
    private readonly lookup: DeploymentLookup,
  ) {}

  get enabled(): boolean {
    return this.reach.enabled;
  }

  async run(server: ServerDoc, ctx: RequestContext): Promise<ServerCheckAnswer> {
    const report = await this.reach.check(server, server.hostKeyApproved ? 'login' : 'handshake');
    const { mode, address, ok, latencyMs } = report;
    const check = { mode, address, ok, failure: report.error?.class ?? null, latencyMs };
    await this.servers.change({ kind: 'recordCheck', serverId: server.id, check }, ctx);
    return {
      serverId: server.id,
      name: server.name,
      target: `${server.sshUser}@${server.host}:${server.sshPort}`,
      hostKeyFingerprint: server.hostKeyFingerprint,
      ...reportFor(report, ctx),
    };
  }

  /** The check an approval reports: null when server checks are off. */
  async afterApproval(serverId: string, ctx: RequestContext): Promise<ServerCheckAnswer | null> {
    return this.enabled ? this.run(await this.lookup.server(serverId), ctx) : null;
  }
}
