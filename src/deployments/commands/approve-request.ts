import type { ICommandHandler } from '@nestjs/cqrs';
import type { AccessTarget } from '../../access/access.service.js';
import { approvalStream } from '../../events/deployments.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { OPERATORS } from '../../kernel/roles.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { currentBasis, frozenSnapshot } from '../approval-payload.js';
import { ApprovalRequests } from '../approval-requests.js';
import { approvalDecider } from '../approval.decider.js';
import { DeploymentLauncher } from '../deployment-launcher.js';
import { StreamFacts } from '../facts/stream-facts.js';
import { RollbackLaunches } from '../rollback-launch.js';
import { DecideApprovalInput, type ApprovalDecisionAnswer } from './decide-approval.input.js';

export class ApproveRequest extends ProcedureCommand<DecideApprovalInput, ApprovalDecisionAnswer> {}

/** Who may call approveRequest: its declaration's rule, also applied where a rollback runs. */
const APPROVE_REQUEST = {
  roles: OPERATORS,
  scopes: ['approvals:decide'],
} as const satisfies Pick<AccessTarget, 'roles' | 'scopes'>;

/**
 * An approved deploy or rollback queues the snapshot its request froze, exactly once
 * (idempotency key `approval:<id>`), and only while the service is as it was when the request
 * was filed (else `409`, `reason: "stale"`). Approving again retries a launch that did not
 * happen, under the same rules. An approved restore is run by restoreBackup.
 */
@Procedure.command(ApproveRequest, {
  name: 'approveRequest',
  ...APPROVE_REQUEST,
  input: DecideApprovalInput,
  description:
    'Approves a request filed neither by you nor by an agent you created or minted its token, while the service is as it was when it was filed (else 409, reason "stale"); a deploy or rollback then queues the snapshot the request froze, once.',
  project: { approval: 'approvalId' },
})
export class ApproveRequestHandler implements ICommandHandler<ApproveRequest> {
  constructor(
    private readonly approvals: ApprovalRequests,
    private readonly facts: StreamFacts,
    private readonly runner: DeciderRunner,
    private readonly launcher: DeploymentLauncher,
    private readonly rollbacks: RollbackLaunches,
  ) {}

  async execute({ input, ctx }: ApproveRequest): Promise<ApprovalDecisionAnswer> {
    const request = await this.approvals.filed(input.approvalId);
    const service = await this.facts.service(request.serviceId);
    const snapshot = frozenSnapshot(request.payload);
    // A rollback runs on the service's server, which may be in another project: judged there.
    if (request.action === 'rollback' && snapshot)
      await this.rollbacks.judge(snapshot, { name: 'approveRequest', ...APPROVE_REQUEST }, ctx);
    const note = input.note ?? null;
    const basis = currentBasis(request, service);
    const decided = await this.approvals.decide(request, true, note, basis, ctx);
    const answer = { approvalId: request.approvalId, status: 'approved' };
    if (request.action === 'restore') return { ...answer, deploymentId: null };
    if (decided.executedDeploymentId)
      return { ...answer, deploymentId: decided.executedDeploymentId };
    // The decider refused a request without a snapshot (its basis is null): there is one here.
    const frozen = snapshot!;
    const targetDeploymentId = request.payload.targetDeploymentId;
    const rollbackOf = request.action === 'rollback' ? String(targetDeploymentId) : null;
    const { deploymentId } = await this.launcher.launch(
      {
        service,
        imageRef: frozen.imageRef,
        trigger: rollbackOf ? 'rollback' : 'approval',
        requestedBy: request.requestedBy,
        snapshot: frozen,
        rollbackOf,
        approvalId: request.approvalId,
        idempotencyKey: `approval:${request.approvalId}`,
      },
      ctx,
    );
    await this.runner.run(
      approvalStream(request.approvalId),
      approvalDecider,
      { kind: 'executed', approvalId: request.approvalId, deploymentId },
      ctx,
    );
    return { ...answer, deploymentId };
  }
}
