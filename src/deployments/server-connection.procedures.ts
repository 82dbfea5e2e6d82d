import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../kernel/request-context.js';
import { LegacyProcedure as Procedure } from '../kernel/procedure.js';
import { DEPLOYERS } from '../kernel/roles.js';
import {
  CheckServerHandler,
  CheckServerInput,
  ScanServerHostKeyHandler,
  ScanServerHostKeyInput,
} from './commands/server-connection.js';

/**
 * Connections on request: command lane, and only for callers who may write servers. Each one has
 * the control plane open a connection (a side effect, and one an attacker would want: a keyscan
 * reaches any address the server address policy allows) and is recorded as an event.
 */
@Injectable()
export class ServerConnectionProcedures {
  constructor(
    private readonly scanServerHostKeyHandler: ScanServerHostKeyHandler,
    private readonly checkServerHandler: CheckServerHandler,
  ) {}

  @Procedure.command({
    name: 'scanServerHostKey',
    roles: DEPLOYERS,
    scopes: ['server:write'],
    input: ScanServerHostKeyInput,
    description:
      'Fetches the SSH host key fingerprint {host, port?} presents (key exchange only, no login), to pin with registerServer and repeat to approveServerHostKey.',
  })
  scanServerHostKey(input: ScanServerHostKeyInput, ctx: RequestContext) {
    return this.scanServerHostKeyHandler.execute(input, ctx);
  }

  @Procedure.command({
    name: 'checkServer',
    roles: DEPLOYERS,
    scopes: ['server:write'],
    input: CheckServerInput,
    description:
      'Connects to a server with its pinned host key and sealed key (key exchange only until the host key is approved), runs nothing, and reports reachable, host key, authenticated, latency and the failure class.',
  })
  checkServer(input: CheckServerInput, ctx: RequestContext) {
    return this.checkServerHandler.execute(input, ctx);
  }
}
