import { Injectable } from '@nestjs/common';
import { DisplayName } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import { ScopeList, TokenLifetimeDays } from './token-fields.js';
import { PrincipalLookup } from '../principal-lookup.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { TokenMinter, type MintedToken } from '../token-minter.js';

export class CreateTokenInput {
  @DisplayName()
  tokenName!: string;

  @ScopeList()
  scopes!: string[];

  @Omittable()
  @TokenLifetimeDays()
  expiresInDays?: number;
}

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
