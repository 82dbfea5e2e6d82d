import type { ICommandHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import { conflict } from '../../common/app-error.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { CHECKS_OFF } from '../reach/server-reach.js';
import { ServerChecks, type ServerCheckAnswer } from './server-connection.js';

export class CheckServerInput {
  @IsUUID()
  serverId!: string;
}

export class CheckServer extends ProcedureCommand<CheckServerInput, ServerCheckAnswer> {}

/**
 * `checkServer`: does the server answer, with the pinned host key, and take its key? Command
 * lane, for callers who may write servers: the control plane opens a connection (a side effect)
 * and records it as an event.
 */
@Procedure.command(CheckServer, {
  name: 'checkServer',
  roles: DEPLOYERS,
  scopes: ['server:write'],
  input: CheckServerInput,
  description:
    'Connects to a server with its pinned host key and sealed key (key exchange only until the host key is approved), runs nothing, and reports reachable, host key, authenticated, latency and the failure class.',
  project: { server: 'serverId' },
})
export class CheckServerHandler implements ICommandHandler<CheckServer> {
  constructor(
    private readonly checks: ServerChecks,
    private readonly lookup: DeploymentLookup,
  ) {}

  async execute({ input, ctx }: CheckServer): Promise<ServerCheckAnswer> {
    const server = await this.lookup.server(input.serverId);
    if (!this.checks.enabled) throw conflict(CHECKS_OFF);
    return this.checks.run(server, ctx);
  }
}
