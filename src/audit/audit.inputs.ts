import { IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';

/** `verifyAuditTrail`: both bounds optional and inclusive; global positions. */
export class VerifyAuditTrailInput {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  fromPosition?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  toPosition?: number;
}

export class EraseSubjectDataInput {
  @IsUUID()
  userId!: string;
}
