import type { ICommandHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import { badRequest } from '../../common/app-error.js';
import { DisplayName } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { ADMINS } from '../../kernel/roles.js';
import { assertMayReceiveTokenOf, callerOf } from '../authority.js';
import { capabilitiesOf } from '../capabilities.js';
import { PrincipalLookup } from '../principal-lookup.js';
import { TokenMinter, type MintedToken } from '../token-minter.js';
import { ProjectList, ScopeList, TokenLifetimeDays } from './token-fields.js';

export class GenerateAgentTokenInput {
  @IsUUID()
  principalId!: string;

  @DisplayName()
  tokenName!: string;

  @TokenLifetimeDays()
  expiresInDays!: number;

  /** Defaults to the agent's whole preset. */
  @Omittable()
  @ScopeList()
  scopes?: string[];

  /** Limit the token to these projects (absent: every project its principal reaches). */
  @Omittable()
  @ProjectList()
  projects?: string[];
}

export class GenerateAgentToken extends ProcedureCommand<GenerateAgentTokenInput, MintedToken> {}

/**
 * Spec 4.3 step 2: a token for an agent; its scopes default to the agent's whole preset. The
 * value goes to the caller, who must rank at least as the agent's creator, and the scopes must
 * lie within the caller's effective scopes (checked by the minter; never silently trimmed).
 */
@Procedure.command(GenerateAgentToken, {
  name: 'generateAgentToken',
  roles: ADMINS,
  scopes: ['tokens:manage'],
  input: GenerateAgentTokenInput,
  description:
    'Mints an expiring token, within your own scopes, for an agent whose creator ranks no higher than you; the value is returned once.',
})
export class GenerateAgentTokenHandler implements ICommandHandler<GenerateAgentToken> {
  constructor(
    private readonly lookup: PrincipalLookup,
    private readonly minter: TokenMinter,
  ) {}

  async execute({ input, ctx }: GenerateAgentToken): Promise<MintedToken> {
    const principal = await this.lookup.principal(input.principalId);
    if (principal.kind !== 'agent') {
      throw badRequest(
        'principalId is not an agent; users create their own tokens with createToken',
        [{ path: 'principalId', message: 'must name an agent principal' }],
      );
    }
    assertMayReceiveTokenOf(callerOf(ctx), await this.lookup.ranked(principal));
    const scopes = input.scopes ?? [
      ...capabilitiesOf({ kind: 'agent', role: 'agent', preset: principal.preset }),
    ];
    return this.minter.mint(
      {
        principal,
        name: input.tokenName,
        scopes,
        expiresInDays: input.expiresInDays,
        projects: input.projects ? [...new Set(input.projects)].sort() : null,
      },
      ctx,
    );
  }
}
