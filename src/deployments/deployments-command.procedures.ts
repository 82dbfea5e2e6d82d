import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../kernel/request-context.js';
import { Procedure, type ProcedureOptions } from '../kernel/procedure.js';
import {
  DecideApprovalHandler,
  DecideApprovalInput,
  RequestApprovalHandler,
  RequestApprovalInput,
} from './commands/approvals.handlers.js';
import { RecordBackupHandler, RecordBackupInput } from './commands/backups.handlers.js';
import {
  CancelDeploymentHandler,
  CancelDeploymentInput,
  ExecuteRollbackHandler,
  ExecuteRollbackInput,
  TriggerDeployHandler,
  TriggerDeployInput,
} from './commands/deploy.handlers.js';
import {
  ApproveServerHostKeyHandler,
  ApproveServerHostKeyInput,
  RegisterServerHandler,
  RegisterServerInput,
} from './commands/servers.handlers.js';
import {
  RegisterServiceHandler,
  RegisterServiceInput,
  UpdateServiceHandler,
  UpdateServiceInput,
} from './commands/services.handlers.js';
import {
  SetServerComposePolicyHandler,
  SetServerComposePolicyInput,
} from './compose-policy/compose-policy.handler.js';
import { ADMINS, DEPLOYERS, OPERATORS, type Role } from '../kernel/roles.js';
import type { Scope } from '../kernel/scopes.js';

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
  constructor(
    private readonly approveServerHostKeyHandler: ApproveServerHostKeyHandler,
    private readonly cancelDeploymentHandler: CancelDeploymentHandler,
    private readonly decideApprovalHandler: DecideApprovalHandler,
    private readonly executeRollbackHandler: ExecuteRollbackHandler,
    private readonly recordBackupHandler: RecordBackupHandler,
    private readonly registerServerHandler: RegisterServerHandler,
    private readonly registerServiceHandler: RegisterServiceHandler,
    private readonly requestApprovalHandler: RequestApprovalHandler,
    private readonly setServerComposePolicyHandler: SetServerComposePolicyHandler,
    private readonly triggerDeployHandler: TriggerDeployHandler,
    private readonly updateServiceHandler: UpdateServiceHandler,
  ) {}

  @Procedure(
    command(
      'registerServer',
      'server:write',
      RegisterServerInput,
      'Registers a server: SSH target, sealed private key, pinned host key fingerprint (to approve).',
    ),
  )
  registerServer(input: RegisterServerInput, ctx: RequestContext) {
    return this.registerServerHandler.execute(input, ctx);
  }

  @Procedure(
    command(
      'approveServerHostKey',
      'server:write',
      ApproveServerHostKeyInput,
      'Approves the pinned host key (must match it); the server becomes ready. Then checks the SSH connection and reports it as `connection` (a failed check does not undo the approval; null when server checks are off).',
    ),
  )
  approveServerHostKey(input: ApproveServerHostKeyInput, ctx: RequestContext) {
    return this.approveServerHostKeyHandler.execute(input, ctx);
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
    return this.setServerComposePolicyHandler.execute(input, ctx);
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
    return this.registerServiceHandler.execute(input, ctx);
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
    return this.updateServiceHandler.execute(input, ctx);
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
    return this.triggerDeployHandler.execute(input, ctx);
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
    return this.executeRollbackHandler.execute(input, ctx);
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
    return this.cancelDeploymentHandler.execute(input, ctx);
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
    return this.requestApprovalHandler.execute(input, ctx);
  }

  @Procedure(
    command(
      'approveRequest',
      'approvals:decide',
      DecideApprovalInput,
      'Approves a request filed neither by you nor by an agent you created or minted its token; a deploy or rollback then runs once.',
      OPERATORS,
    ),
  )
  approveRequest(input: DecideApprovalInput, ctx: RequestContext) {
    return this.decideApprovalHandler.execute(input, true, ctx);
  }

  @Procedure(
    command(
      'rejectRequest',
      'approvals:decide',
      DecideApprovalInput,
      'Rejects a request filed neither by you nor by an agent you created or minted its token.',
      OPERATORS,
    ),
  )
  rejectRequest(input: DecideApprovalInput, ctx: RequestContext) {
    return this.decideApprovalHandler.execute(input, false, ctx);
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
    return this.recordBackupHandler.execute(input, ctx);
  }
}
