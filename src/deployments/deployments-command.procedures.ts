import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { RequestContext } from '../kernel/request-context.js';
import { Procedure, type ProcedureOptions } from '../kernel/procedure.js';
import { DecideApprovalCommand, RequestApprovalCommand } from './commands/approvals.handlers.js';
import { RecordBackupCommand } from './commands/backups.handlers.js';
import {
  CancelDeploymentCommand,
  ExecuteRollbackCommand,
  TriggerDeployCommand,
} from './commands/deploy.handlers.js';
import { ApproveServerHostKeyCommand, RegisterServerCommand } from './commands/servers.handlers.js';
import { RegisterServiceCommand, UpdateServiceCommand } from './commands/services.handlers.js';
import { SetServerComposePolicyCommand } from './compose-policy/compose-policy.handler.js';
import { SetServerComposePolicyInput } from './compose-policy/compose-policy.inputs.js';
import {
  ApproveServerHostKeyInput,
  CancelDeploymentInput,
  DecideApprovalInput,
  ExecuteRollbackInput,
  RecordBackupInput,
  RegisterServerInput,
  RegisterServiceInput,
  RequestApprovalInput,
  TriggerDeployInput,
  UpdateServiceInput,
} from './deployments.inputs.js';
import { ADMINS, DEPLOYERS, type Role } from '../kernel/roles.js';
import type { Scope } from '../kernel/scopes.js';

/** Who may decide on approvals: humans from operator up (never an agent). */
const DECIDERS = ['owner', 'admin', 'operator'] as const satisfies readonly Role[];
const command = (
  name: string,
  scope: Scope,
  input: ProcedureOptions['input'],
  description: string,
  roles: readonly Role[] = DEPLOYERS,
): ProcedureOptions => ({
  name,
  lane: 'command',
  auth: 'authenticated',
  roles,
  scopes: [scope],
  input,
  description,
});

@Injectable()
export class DeploymentCommandProcedures {
  constructor(private readonly commands: CommandBus) {}

  @Procedure(
    command(
      'registerServer',
      'server:write',
      RegisterServerInput,
      'Registers a server: SSH target, sealed private key, pinned host key fingerprint (to approve).',
    ),
  )
  registerServer(input: RegisterServerInput, ctx: RequestContext) {
    return this.commands.execute(new RegisterServerCommand(input, ctx));
  }

  @Procedure(
    command(
      'approveServerHostKey',
      'server:write',
      ApproveServerHostKeyInput,
      'Approves the pinned host key (must match it); the server becomes ready.',
    ),
  )
  approveServerHostKey(input: ApproveServerHostKeyInput, ctx: RequestContext) {
    return this.commands.execute(new ApproveServerHostKeyCommand(input, ctx));
  }

  /**
   * Owner/admin only, and the presenting credential must carry server:write (a token narrows):
   * allowing root-equivalent compose on a server is a decision above an operator's.
   */
  @Procedure(
    command(
      'setServerComposePolicy',
      'server:write',
      SetServerComposePolicyInput,
      'Owner/admin: the compose capabilities a server allows (privileged, hostNetwork, dockerSocket, ...); replaces the list, [] refuses all.',
      ADMINS,
    ),
  )
  setServerComposePolicy(input: SetServerComposePolicyInput, ctx: RequestContext) {
    return this.commands.execute(new SetServerComposePolicyCommand(input, ctx));
  }

  @Procedure(
    command(
      'registerService',
      'service:write',
      RegisterServiceInput,
      'Registers a service: target server, image repository, validated compose, env vars (secrets sealed), approval rule.',
    ),
  )
  registerService(input: RegisterServiceInput, ctx: RequestContext) {
    return this.commands.execute(new RegisterServiceCommand(input, ctx));
  }

  @Procedure(
    command(
      'updateService',
      'service:write',
      UpdateServiceInput,
      'Changes fields of a service; later deployments use them, earlier snapshots stay frozen.',
    ),
  )
  updateService(input: UpdateServiceInput, ctx: RequestContext) {
    return this.commands.execute(new UpdateServiceCommand(input, ctx));
  }

  @Procedure(
    command(
      'triggerDeploy',
      'deploy:start',
      TriggerDeployInput,
      'Queues a deployment (FIFO per service), or opens an approval when the service rule requires one. Honours Idempotency-Key.',
    ),
  )
  triggerDeploy(input: TriggerDeployInput, ctx: RequestContext) {
    return this.commands.execute(new TriggerDeployCommand(input, ctx));
  }

  @Procedure(
    command(
      'executeRollback',
      'deploy:start',
      ExecuteRollbackInput,
      'Queues a deployment that replays a succeeded deployment’s frozen snapshot (or opens an approval).',
    ),
  )
  executeRollback(input: ExecuteRollbackInput, ctx: RequestContext) {
    return this.commands.execute(new ExecuteRollbackCommand(input, ctx));
  }

  @Procedure(
    command(
      'cancelDeployment',
      'deploy:cancel',
      CancelDeploymentInput,
      'Cancels a queued deployment at once; asks a running one to stop between steps.',
    ),
  )
  cancelDeployment(input: CancelDeploymentInput, ctx: RequestContext) {
    return this.commands.execute(new CancelDeploymentCommand(input, ctx));
  }

  @Procedure(
    command(
      'requestApproval',
      'approvals:request',
      RequestApprovalInput,
      'Asks for approval of a deploy, rollback or restore; the payload is frozen.',
    ),
  )
  requestApproval(input: RequestApprovalInput, ctx: RequestContext) {
    return this.commands.execute(new RequestApprovalCommand(input, ctx));
  }

  @Procedure(
    command(
      'approveRequest',
      'approvals:decide',
      DecideApprovalInput,
      'Approves a request filed neither by you nor by an agent you created or minted its token; a deploy or rollback then runs once.',
      DECIDERS,
    ),
  )
  approveRequest(input: DecideApprovalInput, ctx: RequestContext) {
    return this.commands.execute(new DecideApprovalCommand(input, true, ctx));
  }

  @Procedure(
    command(
      'rejectRequest',
      'approvals:decide',
      DecideApprovalInput,
      'Rejects a request filed neither by you nor by an agent you created or minted its token.',
      DECIDERS,
    ),
  )
  rejectRequest(input: DecideApprovalInput, ctx: RequestContext) {
    return this.commands.execute(new DecideApprovalCommand(input, false, ctx));
  }

  @Procedure(
    command(
      'recordBackup',
      'backup:write',
      RecordBackupInput,
      'Records a backup artifact: location, SHA-256 checksum, size, time.',
    ),
  )
  recordBackup(input: RecordBackupInput, ctx: RequestContext) {
    return this.commands.execute(new RecordBackupCommand(input, ctx));
  }
}
