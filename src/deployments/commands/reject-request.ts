import type { ICommandHandler } from '@nestjs/cqrs';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { OPERATORS } from '../../kernel/roles.js';
import { ApprovalRequests } from '../approval-requests.js';
import { DecideApprovalInput, type ApprovalDecisionAnswer } from './decide-approval.input.js';

export class RejectRequest extends ProcedureCommand<DecideApprovalInput, ApprovalDecisionAnswer> {}

/** A rejected request runs nothing; the two-humans rule holds for rejecting too. */
@Procedure.command(RejectRequest, {
  name: 'rejectRequest',
  roles: OPERATORS,
  scopes: ['approvals:decide'],
  input: DecideApprovalInput,
  description:
    'Rejects a request filed neither by you nor by an agent you created or minted its token.',
  project: { approval: 'approvalId' },
})
export class RejectRequestHandler implements ICommandHandler<RejectRequest> {
  constructor(private readonly approvals: ApprovalRequests) {}

  async execute({ input, ctx }: RejectRequest): Promise<ApprovalDecisionAnswer> {
    const request = await this.approvals.filed(input.approvalId);
    await this.approvals.decide(request, false, input.note ?? null, null, ctx);
    return { approvalId: request.approvalId, status: 'rejected', deploymentId: null };
  }
}
