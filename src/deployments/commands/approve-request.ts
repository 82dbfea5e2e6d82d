import type { ICommandHandler } from '@nestjs/cqrs';
import { approvalStream, type DeploymentSnapshot } from '../../events/deployments.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { OPERATORS } from '../../kernel/roles.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { ApprovalRequests } from '../approval-requests.js';
import { approvalDecider } from '../approval.decider.js';
import { DeploymentLauncher } from '../deployment-launcher.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { StreamFacts } from '../facts/stream-facts.js';
import { DecideApprovalInput, type ApprovalDecisionAnswer } from './decide-approval.input.js';

export class ApproveRequest extends ProcedureCommand<DecideApprovalInput, ApprovalDecisionAnswer> {}

/** The snapshot a compose intake froze in its approval request, if it is one. */
function frozenSnapshot(payload: Record<string, unknown>): DeploymentSnapshot | undefined {
  const snapshot = payload.snapshot;
  return snapshot && typeof snapshot === 'object' ? (snapshot as DeploymentSnapshot) : undefined;
}

/**
 * An approved deploy or rollback runs its frozen payload exactly once (idempotency key
 * `approval:<id>`); approving again retries a stalled run. An approved restore is run by
 * restoreBackup.
 */
@Procedure.command(ApproveRequest, {
  name: 'approveRequest',
  roles: OPERATORS,
  scopes: ['approvals:decide'],
  input: DecideApprovalInput,
  description:
    'Approves a request filed neither by you nor by an agent you created or minted its token; a deploy or rollback then runs once.',
  project: { approval: 'approvalId' },
})
export class ApproveRequestHandler implements ICommandHandler<ApproveRequest> {
  constructor(
    private readonly approvals: ApprovalRequests,
    private readonly lookup: DeploymentLookup,
    private readonly facts: StreamFacts,
    private readonly runner: DeciderRunner,
    private readonly launcher: DeploymentLauncher,
  ) {}

  async execute({ input, ctx }: ApproveRequest): Promise<ApprovalDecisionAnswer> {
    const approval = await this.approvals.decide(input.approvalId, true, input.note ?? null, ctx);
    if (approval.action === 'restore')
      return { approvalId: approval.id, status: 'approved', deploymentId: null };
    const service = await this.facts.service(approval.serviceId);
    const target =
      approval.action === 'rollback'
        ? await this.lookup.deployment(String(approval.payload.targetDeploymentId))
        : null;
    const { deploymentId } = await this.launcher.launch(
      {
        service,
        imageRef: target ? target.imageRef : String(approval.payload.imageRef),
        trigger: target ? 'rollback' : 'approval',
        requestedBy: approval.requestedBy,
        snapshot: target?.snapshot ?? frozenSnapshot(approval.payload),
        rollbackOf: target?.id ?? null,
        approvalId: approval.id,
        idempotencyKey: `approval:${approval.id}`,
      },
      ctx,
    );
    await this.runner.run(
      approvalStream(approval.id),
      approvalDecider,
      { kind: 'executed', approvalId: approval.id, deploymentId },
      ctx,
    );
    return { approvalId: approval.id, status: 'approved', deploymentId };
  }
}
