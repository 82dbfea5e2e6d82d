import { Injectable } from '@nestjs/common';
import type { CreateTokenInput } from '../access.inputs.js';
import { PrincipalLookup } from '../principal-lookup.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { TokenMinter, type MintedToken } from '../token-minter.js';

/** A token for the caller's own user principal, narrowed to the scopes asked for. */
@Injectable()
export class CreateTokenHandler {
  constructor(
    private readonly lookup: PrincipalLookup,
    private readonly minter: TokenMinter,
  ) {}

  async execute(input: CreateTokenInput, ctx: RequestContext): Promise<MintedToken> {
    const principal = await this.lookup.principal(ctx.principal!.id);
    return this.minter.mint(
      {
        principal,
        name: input.tokenName,
        scopes: input.scopes,
        expiresInDays: input.expiresInDays,
      },
      ctx,
    );
  }
}
