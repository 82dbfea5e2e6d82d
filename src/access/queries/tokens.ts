import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import type { ApiTokenDoc } from '../../../projections/api-tokens.projection.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { ADMINS } from '../../kernel/roles.js';
import { readPage, whereGiven } from '../../readstore/read-page.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { PageInput } from '../../common/page.input.js';
import { StoredCredentialVerifier } from '../stored-credential.verifier.js';

export interface TokenView {
  tokenId: string;
  principalId: string;
  name: string;
  scopes: string[];
  lane: string;
  createdAt: string;
  createdBy: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  replacedBy: string | null;
  refuseAfter: string | null;
  /** The projects the token is limited to; null: not limited. */
  projects: string[] | null;
  state: 'active' | 'revoked' | 'expired' | 'rotated';
}

export class TokensInput extends PageInput {
  @Omittable()
  @IsUUID()
  principalId?: string;
}

export interface TokensPage {
  items: TokenView[];
  nextCursor: string | null;
}

export class Tokens extends ProcedureQuery<TokensInput, TokensPage> {}

/** Token metadata, newest first; never values or digests. */
@Procedure.read(Tokens, {
  name: 'tokens',
  roles: ADMINS,
  scopes: ['tokens:read'],
  input: TokensInput,
  description: 'API token metadata (never values), newest first, optionally for one principal.',
})
export class TokensHandler implements IQueryHandler<Tokens> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly verifier: StoredCredentialVerifier,
  ) {}

  async execute({ input }: Tokens): Promise<TokensPage> {
    const now = this.clock.now().getTime();
    const filter = whereGiven({ principalId: input.principalId });
    return readPage(
      this.reads.collection<ApiTokenDoc>('api_tokens'),
      { filter, sort: { createdAt: -1 }, defaultLimit: 50 },
      input,
      async (t): Promise<TokenView> => ({
        tokenId: t.id,
        principalId: t.principalId,
        name: t.name,
        scopes: t.scopes,
        lane: t.lane,
        createdAt: t.createdAt,
        createdBy: t.createdBy,
        expiresAt: t.expiresAt,
        lastUsedAt: (await this.verifier.tokenUsage.lastUsed(t.id))?.toISOString() ?? null,
        revokedAt: t.revokedAt,
        replacedBy: t.replacedBy,
        refuseAfter: t.refuseAfter,
        projects: t.projects ?? null,
        state: t.revokedAt
          ? 'revoked'
          : t.expiresAt && Date.parse(t.expiresAt) <= now
            ? 'expired'
            : t.replacedBy
              ? 'rotated'
              : 'active',
      }),
    );
  }
}
