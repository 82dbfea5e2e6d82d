import { IsInt, Matches, Max, Min } from 'class-validator';
import type { IQueryHandler } from '@nestjs/cqrs';
import { Omittable } from '../common/omittable.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureQuery } from '../kernel/procedure-message.js';
import { ADMINS } from '../kernel/roles.js';
import { AuditVerification, type VerificationReport } from './audit-verification.js';
import { EXPECTED_CHECKPOINT_PATTERN, parseKnownCheckpoint } from './mark/audit-mark.js';

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

  /**
   * `<sequence>:<digest>` of a checkpoint kept outside Slipway (a report's `lastCheckpoint`):
   * the event store must still hold it, else `truncated` (ends before it) or `diverged`.
   */
  @Omittable()
  @Matches(EXPECTED_CHECKPOINT_PATTERN, {
    message: 'expectCheckpoint must be <sequence>:<digest> (64 lowercase hex digits)',
  })
  expectCheckpoint?: string;
}

export class VerifyAuditTrail extends ProcedureQuery<VerifyAuditTrailInput, VerificationReport> {}

/** The verification the audit watch also runs, on the range asked for. */
@Procedure.read(VerifyAuditTrail, {
  name: 'verifyAuditTrail',
  roles: ADMINS,
  scopes: ['audit:read'],
  input: VerifyAuditTrailInput,
  description:
    'Recomputes the hash chain (all events, or fromPosition-toPosition from the signed checkpoint before it), checks the checkpoints, that the store still holds the last one signed beside the key (and expectCheckpoint, one kept elsewhere), and the trail entries against their events; names the first bad position.',
})
export class VerifyAuditTrailHandler implements IQueryHandler<VerifyAuditTrail> {
  constructor(private readonly verification: AuditVerification) {}

  execute({ input }: VerifyAuditTrail): Promise<VerificationReport> {
    const { expectCheckpoint, ...range } = input;
    const expected = expectCheckpoint ? parseKnownCheckpoint(expectCheckpoint) : null;
    return this.verification.verify({
      ...range,
      ...(expected ? { expectCheckpoint: expected } : {}),
    });
  }
}
