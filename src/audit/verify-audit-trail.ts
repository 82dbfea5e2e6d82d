import { IsInt, Max, Min } from 'class-validator';
import type { IQueryHandler } from '@nestjs/cqrs';
import { Omittable } from '../common/omittable.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureQuery } from '../kernel/procedure-message.js';
import { ADMINS } from '../kernel/roles.js';
import { AuditVerification, type VerificationReport } from './audit-verification.js';

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

export class VerifyAuditTrail extends ProcedureQuery<VerifyAuditTrailInput, VerificationReport> {}

/** The verification the audit watch also runs, on the range asked for. */
@Procedure.read(VerifyAuditTrail, {
  name: 'verifyAuditTrail',
  roles: ADMINS,
  scopes: ['audit:read'],
  input: VerifyAuditTrailInput,
  description:
    'Recomputes the hash chain (all events, or fromPosition-toPosition from the signed checkpoint before it) and checks the checkpoints; names the first bad position.',
})
export class VerifyAuditTrailHandler implements IQueryHandler<VerifyAuditTrail> {
  constructor(private readonly verification: AuditVerification) {}

  execute({ input }: VerifyAuditTrail): Promise<VerificationReport> {
    return this.verification.verify(input);
  }
}
