import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../kernel/request-context.js';
import { LegacyProcedure as Procedure } from '../kernel/procedure.js';
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
import { ADMINS, DEPLOYERS, OPERATORS } from '../kernel/roles.js';

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
    private readonly updateServiceHandler: UpdateServiceHandler,
  ) {}

  @Procedure.command({
    name: 'registerServer',
    roles: DEPLOYERS,
    scopes: ['server:write'],
    input: RegisterServerInput,
    description:
      'Registers a server: SSH target, sealed private key, pinned host key fingerprint (to approve).',
  })
  registerServer(input: RegisterServerInput, ctx: RequestContext) {
    return this.registerServerHandler.execute(input, ctx);
  }

  @Procedure.command({
    name: 'approveServerHostKey',
    roles: DEPLOYERS,
    scopes: ['server:write'],
    input: ApproveServerHostKeyInput,
    description:
      'Approves the pinned host key (must match it); the server becomes ready. Then checks the SSH connection and reports it as `connection` (a failed check does not undo the approval; null when server checks are off).',
  })
  approveServerHostKey(input: ApproveServerHostKeyInput, ctx: RequestContext) {
    return this.approveServerHostKeyHandler.execute(input, ctx);
  }

  /**
   * Owner/admin only, and the presenting credential must carry server:write (a token narrows):
   * allowing root-equivalent compose on a server is a decision above an operator's.
   */
  @Procedure.command({
    name: 'setServerComposePolicy',
    roles: ADMINS,
    scopes: ['server:write'],
    input: SetServerComposePolicyInput,
    description:
      'Owner/admin: the compose capabilities a server allows (privileged, hostNetwork, dockerSocket, ...); replaces the list, [] refuses all.',
  })
  setServerComposePolicy(input: SetServerComposePolicyInput, ctx: RequestContext) {
    return this.setServerComposePolicyHandler.execute(input, ctx);
  }

  @Procedure.command({
    name: 'registerService',
    roles: DEPLOYERS,
    scopes: ['service:write'],
    input: RegisterServiceInput,
    description:
      'Registers a service: target server, image repository, validated compose, env vars (secrets sealed), approval rule.',
  })
  registerService(input: RegisterServiceInput, ctx: RequestContext) {
    return this.registerServiceHandler.execute(input, ctx);
  }

  @Procedure.command({
    name: 'updateService',
    roles: DEPLOYERS,
    scopes: ['service:write'],
    input: UpdateServiceInput,
    description:
      'Changes fields of a service; later deployments use them, earlier snapshots stay frozen.',
  })
  updateService(input: UpdateServiceInput, ctx: RequestContext) {
    return this.updateServiceHandler.execute(input, ctx);
  }

  @Procedure.command({
    name: 'executeRollback',
    roles: DEPLOYERS,
    scopes: ['deploy:start'],
    input: ExecuteRollbackInput,
    description:
      'Queues a deployment that replays a succeeded deployment’s frozen snapshot (or opens an approval).',
  })
  executeRollback(input: ExecuteRollbackInput, ctx: RequestContext) {
    return this.executeRollbackHandler.execute(input, ctx);
  }

  @Procedure.command({
    name: 'cancelDeployment',
    roles: DEPLOYERS,
    scopes: ['deploy:cancel'],
    input: CancelDeploymentInput,
    description: 'Cancels a queued deployment at once; asks a running one to stop between steps.',
  })
  cancelDeployment(input: CancelDeploymentInput, ctx: RequestContext) {
    return this.cancelDeploymentHandler.execute(input, ctx);
  }

  @Procedure.command({
    name: 'requestApproval',
    roles: DEPLOYERS,
    scopes: ['approvals:request'],
    input: RequestApprovalInput,
    description: 'Asks for approval of a deploy, rollback or restore; the payload is frozen.',
  })
  requestApproval(input: RequestApprovalInput, ctx: RequestContext) {
    return this.requestApprovalHandler.execute(input, ctx);
  }

  @Procedure.command({
    name: 'approveRequest',
    roles: OPERATORS,
    scopes: ['approvals:decide'],
    input: DecideApprovalInput,
    description:
      'Approves a request filed neither by you nor by an agent you created or minted its token; a deploy or rollback then runs once.',
  })
  approveRequest(input: DecideApprovalInput, ctx: RequestContext) {
    return this.decideApprovalHandler.execute(input, true, ctx);
  }

  @Procedure.command({
    name: 'rejectRequest',
    roles: OPERATORS,
    scopes: ['approvals:decide'],
    input: DecideApprovalInput,
    description:
      'Rejects a request filed neither by you nor by an agent you created or minted its token.',
  })
  rejectRequest(input: DecideApprovalInput, ctx: RequestContext) {
    return this.decideApprovalHandler.execute(input, false, ctx);
  }

  @Procedure.command({
    name: 'recordBackup',
    roles: DEPLOYERS,
    scopes: ['backup:write'],
    input: RecordBackupInput,
    description: 'Records a backup artifact: location, SHA-256 checksum, size, time.',
  })
  recordBackup(input: RecordBackupInput, ctx: RequestContext) {
    return this.recordBackupHandler.execute(input, ctx);
  }
}
