import type { ICommandHandler } from '@nestjs/cqrs';
import { IsString, IsUUID, MaxLength } from 'class-validator';
import { Omittable } from '../../common/omittable.js';
import { principalStream } from '../../events/access.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { ADMINS } from '../../kernel/roles.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { assertMayActOn, callerOf } from '../authority.js';
import { principalDecider } from '../principal.decider.js';
import { PrincipalLookup } from '../principal-lookup.js';

export class InvalidatePrincipalInput {
  @IsUUID()
  principalId!: string;

  @Omittable()
  @IsString()
  @MaxLength(280)
  reason?: string;
}

export class InvalidatePrincipal extends ProcedureCommand<
  InvalidatePrincipalInput,
  { principalId: string; invalidated: true }
> {}

/**
 * Every token of the principal is refused with TOKEN_INVALIDATED once this answers. Nobody
 * invalidates a principal ranked above them.
 */
@Procedure.command(InvalidatePrincipal, {
  name: 'invalidatePrincipal',
  roles: ADMINS,
  scopes: ['members:manage'],
  input: InvalidatePrincipalInput,
  description:
    'Refuses every token of a principal ranked no higher than you from now on (TOKEN_INVALIDATED).',
})
export class InvalidatePrincipalHandler implements ICommandHandler<InvalidatePrincipal> {
  constructor(
    private readonly lookup: PrincipalLookup,
    private readonly runner: DeciderRunner,
  ) {}

  async execute({
    input,
    ctx,
  }: InvalidatePrincipal): Promise<{ principalId: string; invalidated: true }> {
    const target = await this.lookup.principal(input.principalId);
    assertMayActOn(callerOf(ctx), await this.lookup.ranked(target), 'invalidate');
    await this.runner.run(
      principalStream(target.id),
      principalDecider,
      {
        kind: 'invalidate',
        principalId: target.id,
        reason: input.reason ?? 'invalidated by an administrator',
      },
      ctx,
    );
    return { principalId: target.id, invalidated: true as const };
  }
}
