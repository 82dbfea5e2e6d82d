import type { ICommandHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import { tokenStream } from '../../events/access.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { ADMINS } from '../../kernel/roles.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { assertMayActOn, callerOf } from '../authority.js';
import { PrincipalLookup } from '../principal-lookup.js';
import { tokenDecider } from '../token.decider.js';

export class TokenIdInput {
  @IsUUID()
  tokenId!: string;
}

export class RevokeToken extends ProcedureCommand<
  TokenIdInput,
  { tokenId: string; revoked: true }
> {}

/**
 * Answers once the token is refused everywhere (the command waits for the projections). Nobody
 * revokes a token of a principal ranked above them.
 */
@Procedure.command(RevokeToken, {
  name: 'revokeToken',
  roles: ADMINS,
  scopes: ['tokens:manage'],
  input: TokenIdInput,
  description:
    'Revokes a token of a principal ranked no higher than you; refused everywhere once this answers.',
})
export class RevokeTokenHandler implements ICommandHandler<RevokeToken> {
  constructor(
    private readonly lookup: PrincipalLookup,
    private readonly runner: DeciderRunner,
  ) {}

  async execute({ input, ctx }: RevokeToken): Promise<{ tokenId: string; revoked: true }> {
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
