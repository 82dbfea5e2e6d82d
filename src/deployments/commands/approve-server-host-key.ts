import type { ICommandHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { HostKeyFingerprint } from '../deployment-fields.js';
import { ServerStreams } from '../server-streams.js';
import { ServerChecks, type ServerCheckAnswer } from './server-connection.js';

export class ApproveServerHostKeyInput {
  @IsUUID()
  serverId!: string;

  @HostKeyFingerprint()
  fingerprint!: string;
}

export interface ApprovedHostKeyAnswer {
  serverId: string;
  status: 'ready';
  connection: ServerCheckAnswer | null;
}

export class ApproveServerHostKey extends ProcedureCommand<
  ApproveServerHostKeyInput,
  ApprovedHostKeyAnswer
> {}

/**
 * Approving is the trust decision (the fingerprint must be the pinned one); the connection check
 * that follows is reported, not a condition: a server may be approved before it is reachable.
 */
@Procedure.command(ApproveServerHostKey, {
  name: 'approveServerHostKey',
  roles: DEPLOYERS,
  scopes: ['server:write'],
  input: ApproveServerHostKeyInput,
  description:
    'Approves the pinned host key (must match it); the server becomes ready. Then checks the SSH connection and reports it as `connection` (a failed check does not undo the approval; null when server checks are off).',
  project: { server: 'serverId' },
})
export class ApproveServerHostKeyHandler implements ICommandHandler<ApproveServerHostKey> {
  constructor(
    private readonly servers: ServerStreams,
    private readonly checks: ServerChecks,
  ) {}

  async execute({ input, ctx }: ApproveServerHostKey): Promise<ApprovedHostKeyAnswer> {
    const { serverId, fingerprint } = input;
    await this.servers.change({ kind: 'approveHostKey', serverId, fingerprint }, ctx);
    const connection = await this.checks.afterApproval(serverId, ctx);
    return { serverId, status: 'ready' as const, connection };
  }
}
