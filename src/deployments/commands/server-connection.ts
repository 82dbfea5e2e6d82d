import { Injectable } from '@nestjs/common';
import { IsUUID } from 'class-validator';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import { badRequest, conflict } from '../../common/app-error.js';
import { hostKeyScanStream, ServerHostKeyScanned } from '../../events/deployments.events.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { EventWriter } from '../../storage/event-writer.js';
import { Host, SshPortNumber } from '../deployment-fields.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { AddressRefusedError } from '../reach/address-gate.js';
import { seesConnectionDetails } from '../reach/connection-failures.js';
import { reportFor, type ConnectionReport } from '../reach/connection-report.js';
import { CHECKS_OFF, ServerReach, type HostKeyScan } from '../reach/server-reach.js';
import { ServerStreams } from '../server-streams.js';

export class ScanServerHostKeyInput {
  @Host()
  host!: string;

  @SshPortNumber()
  port?: number;
}

export class CheckServerInput {
  @IsUUID()
  serverId!: string;
}

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

/** `checkServer`: does the server answer, with the pinned host key, and take its key? */
@Injectable()
export class CheckServerHandler {
  constructor(
    private readonly checks: ServerChecks,
    private readonly lookup: DeploymentLookup,
  ) {}

  async execute(input: CheckServerInput, ctx: RequestContext): Promise<ServerCheckAnswer> {
    const server = await this.lookup.server(input.serverId);
    if (!this.checks.enabled) throw conflict(CHECKS_OFF);
    return this.checks.run(server, ctx);
  }
}

/**
 * `scanServerHostKey`: the host key an SSH endpoint presents, to pin at registration and approve
 * after comparing it (trust on first use, but never silently). The connection goes only to an
 * address the server address policy allows; each scan is recorded (ServerHostKeyScanned), so
 * the audit trail says who had Slipway connect where, and which key it saw.
 */
@Injectable()
export class ScanServerHostKeyHandler {
  constructor(
    private readonly reach: ServerReach,
    private readonly writer: EventWriter,
  ) {}

  async execute(input: ScanServerHostKeyInput, ctx: RequestContext): Promise<HostKeyScan> {
    if (!this.reach.enabled) throw conflict(CHECKS_OFF);
    const port = input.port ?? 22;
    let scan: HostKeyScan;
    try {
      scan = await this.reach.scan(input.host, port);
    } catch (error) {
      if (!(error instanceof AddressRefusedError)) throw error;
      throw badRequest('The server address is refused', [{ path: 'host', message: error.message }]);
    }
    const { host, address, fingerprint, keyType } = scan;
    const failure = scan.error?.class ?? null;
    await this.writer.append(
      hostKeyScanStream(host, port),
      [ServerHostKeyScanned({ host, port, address, fingerprint, keyType, failure })],
      'any',
      ctx,
    );
    if (scan.ok || seesConnectionDetails(ctx)) return scan;
    return {
      ...scan,
      address: null,
      error: { class: 'connect-failed', message: `no SSH host key from ${host}:${port}` },
    };
  }
}
