import { IsInt, IsUUID, Max, Min } from 'class-validator';
import { Omittable } from '../common/omittable.js';

/** `verifyAuditTrail`: both bounds optional and inclusive; global positions. */
export class VerifyAuditTrailInput {
  @Omittable()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  fromPosition?: number;

  @Omittable()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  toPosition?: number;
}

export class EraseSubjectDataInput {
  @IsUUID()
  userId!: string;
}
