import { Injectable } from '@nestjs/common';
import { IsInt, Max, Min } from 'class-validator';
import { Omittable } from '../common/omittable.js';
import { AuditVerification } from './audit-verification.js';

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

@Injectable()
export class VerifyAuditTrailHandler {
  constructor(private readonly verification: AuditVerification) {}
  execute(range: VerifyAuditTrailInput) {
    return this.verification.verify(range);
  }
}
