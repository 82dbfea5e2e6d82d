import { Injectable } from '@nestjs/common';
import { IsUUID } from 'class-validator';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { tokenStream } from '../../events/access.events.js';
import { assertMayActOn, callerOf } from '../authority.js';
import { PrincipalLookup } from '../principal-lookup.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { tokenDecider } from '../token.decider.js';

export class TokenIdInput {
  @IsUUID()
  tokenId!: string;
}

/**
 * Answers once the token is refused everywhere (the command waits for the projections). Nobody
 * revokes a token of a principal ranked above them.
 */
@Injectable()
export class RevokeTokenHandler {
  constructor(
    private readonly lookup: PrincipalLookup,
    private readonly runner: DeciderRunner,
  ) {}

  async execute(
    input: TokenIdInput,
    ctx: RequestContext,
  ): Promise<{ tokenId: string; revoked: true }> {
    const token = await this.lookup.token(input.tokenId);
    const holder = await this.lookup.ranked(await this.lookup.principal(token.principalId));
    assertMayActOn(callerOf(ctx), holder, 'revoke a token of');
    await this.runner.run(
      tokenStream(input.tokenId),
      tokenDecider,
      { kind: 'revoke', tokenId: input.tokenId },
      ctx,
    );
    return { tokenId: input.tokenId, revoked: true as const };
  }
}
