import { IsUUID } from 'class-validator';
import { Omittable } from '../../common/omittable.js';
import { Note } from '../deployment-fields.js';

/** What approveRequest and rejectRequest take: the request and an optional note. */
export class DecideApprovalInput {
  @IsUUID()
  approvalId!: string;

  @Omittable()
  @Note()
  note?: string;
}

export interface ApprovalDecisionAnswer {
  approvalId: string;
  status: string;
  /** The deployment an approved deploy or rollback queued; null otherwise. */
  deploymentId: string | null;
}
