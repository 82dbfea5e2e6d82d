import { Injectable } from '@nestjs/common';
import { IsString, IsUUID, MaxLength } from 'class-validator';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { principalStream } from '../../events/access.events.js';
import { Omittable } from '../../common/omittable.js';
import { assertMayActOn, callerOf } from '../authority.js';
import { principalDecider } from '../principal.decider.js';
import { PrincipalLookup } from '../principal-lookup.js';
import type { RequestContext } from '../../kernel/request-context.js';

export class InvalidatePrincipalInput {
  @IsUUID()
  principalId!: string;

  @Omittable()
  @IsString()
  @MaxLength(280)
  reason?: string;
}

/**
 * Every token of the principal is refused with TOKEN_INVALIDATED once this answers. Nobody
 * invalidates a principal ranked above them.
 */
@Injectable()
export class InvalidatePrincipalHandler {
  constructor(
    private readonly lookup: PrincipalLookup,
    private readonly runner: DeciderRunner,
  ) {}

  async execute(
    input: InvalidatePrincipalInput,
    ctx: RequestContext,
  ): Promise<{
    principalId: string;
    invalidated: true;
  }> {
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
