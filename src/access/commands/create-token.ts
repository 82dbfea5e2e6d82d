import type { ICommandHandler } from '@nestjs/cqrs';
import { DisplayName } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { ADMINS } from '../../kernel/roles.js';
import { PrincipalLookup } from '../principal-lookup.js';
import { TokenMinter, type MintedToken } from '../token-minter.js';
import { ProjectList, ScopeList, TokenLifetimeDays } from './token-fields.js';

export class CreateTokenInput {
  @DisplayName()
  tokenName!: string;

  @ScopeList()
  scopes!: string[];

  @Omittable()
  @TokenLifetimeDays()
  expiresInDays?: number;

  /** Limit the token to these projects (absent: every project its principal reaches). */
  @Omittable()
  @ProjectList()
  projects?: string[];
}

export class CreateToken extends ProcedureCommand<CreateTokenInput, MintedToken> {}

/** A token for the caller's own user principal, narrowed to the scopes asked for. */
@Procedure.command(CreateToken, {
  name: 'createToken',
  roles: ADMINS,
  scopes: ['tokens:manage'],
  input: CreateTokenInput,
  description:
    "Mints a token for the caller's own user, within the presenting credential's scopes; shown once.",
  ownOnly: true,
})
export class CreateTokenHandler implements ICommandHandler<CreateToken> {
  constructor(
    private readonly lookup: PrincipalLookup,
    private readonly minter: TokenMinter,
  ) {}

  async execute({ input, ctx }: CreateToken): Promise<MintedToken> {
    const principal = await this.lookup.principal(ctx.principal!.id);
    return this.minter.mint(
      {
        principal,
        name: input.tokenName,
        scopes: input.scopes,
        expiresInDays: input.expiresInDays,
        projects: input.projects ? [...new Set(input.projects)].sort() : null,
      },
      ctx,
    );
  }
}
