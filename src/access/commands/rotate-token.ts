import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import { IsInt, IsUUID, Max, Min } from 'class-validator';
import { CLOCK, type Clock } from '../../common/clock.js';
import { tokenStream } from '../../events/access.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { ADMINS } from '../../kernel/roles.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { assertMayReceiveTokenOf, assertWithinEffective, callerOf } from '../authority.js';
import { PrincipalLookup } from '../principal-lookup.js';
import { TokenMinter, type MintedToken } from '../token-minter.js';
import { tokenDecider } from '../token.decider.js';

export class RotateTokenInput {
  @IsUUID()
  tokenId!: string;

  /** How long the old token keeps working beside the new one: 0 (refused at once) to 7 days. */
  @IsInt()
  @Min(0)
  @Max(10_080)
  overlapMinutes!: number;
}

export type RotatedToken = MintedToken & { replaces: string; oldRefusedAfter: string };

export class RotateToken extends ProcedureCommand<RotateTokenInput, RotatedToken> {}

/**
 * A new token with the same principal, name and scopes, and a lifetime as long as the old one
 * had; the old one keeps working for `overlapMinutes`, then is refused (TOKEN_INVALIDATED).
 * The new value goes to the caller, so only the token's own user may rotate a user token, an
 * agent's token is rotated by an owner or admin ranked at least as its creator, and the scopes
 * must lie within the caller's effective scopes (a narrow token cannot rotate into a wide one).
 */
@Procedure.command(RotateToken, {
  name: 'rotateToken',
  roles: ADMINS,
  scopes: ['tokens:manage'],
  input: RotateTokenInput,
  description:
    'Mints a replacement of your own token or of an agent’s you may manage; the old one is refused after overlapMinutes.',
})
export class RotateTokenHandler implements ICommandHandler<RotateToken> {
  constructor(
    private readonly lookup: PrincipalLookup,
    private readonly minter: TokenMinter,
    private readonly runner: DeciderRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, ctx }: RotateToken): Promise<RotatedToken> {
    const old = await this.lookup.token(input.tokenId);
    const principal = await this.lookup.principal(old.principalId);
    const caller = callerOf(ctx);
    assertMayReceiveTokenOf(caller, await this.lookup.ranked(principal));
    assertWithinEffective(caller, old.scopes, 'Rotating this token');
    const lifetimeDays = old.expiresAt
      ? Math.max(1, Math.ceil((Date.parse(old.expiresAt) - Date.parse(old.createdAt)) / 86_400_000))
      : undefined;
    const request = {
      principal,
      name: old.name,
      scopes: old.scopes,
      expiresInDays: lifetimeDays,
      rotatedFrom: old.id,
      tokenId: randomUUID(),
      // The new value reaches what the old one did: its projects too.
      projects: old.projects ?? null,
    };
    this.minter.check(request, ctx);
    const refuseAfter = new Date(
      this.clock.now().getTime() + input.overlapMinutes * 60_000,
    ).toISOString();
    await this.runner.run(
      tokenStream(old.id),
      tokenDecider,
      { kind: 'rotate', tokenId: old.id, replacedBy: request.tokenId, refuseAfter },
      ctx,
    );
    const minted = await this.minter.mint(request, ctx);
    return { ...minted, replaces: old.id, oldRefusedAfter: refuseAfter };
  }
}
