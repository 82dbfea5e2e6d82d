import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { PrincipalDoc } from '../../projections/principals.projection.js';
import { conflict } from '../common/app-error.js';
import { CLOCK, type Clock } from '../common/clock.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { tokenStream } from '../events/access.events.js';
import { assertWithinEffective, assertWithinProjects } from './authority.js';
import type { RequestContext } from '../kernel/request-context.js';
import type { Role } from '../kernel/roles.js';
import { generateToken, tokenDigest } from './token-format.js';
import { grantToken, type TokenGrant } from './token-policy.js';
import { tokenDecider } from './token.decider.js';

/** A freshly minted token: the only answer that ever carries its value. */
export interface MintedToken {
  token: string;
  tokenId: string;
  principalId: string;
  name: string;
  scopes: string[];
  lane: string;
  expiresAt: string | null;
  projects: string[] | null;
}

export interface MintRequest {
  principal: PrincipalDoc;
  name: string;
  scopes: string[];
  expiresInDays: number | undefined;
  rotatedFrom?: string;
  tokenId?: string;
  /** Limit the token to these projects; null or absent: not limited. */
  projects?: string[] | null;
}

@Injectable()
export class TokenMinter {
  constructor(
    private readonly runner: DeciderRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Checks the grant without minting (so a rotation can refuse before changing anything): within
   * the principal's capabilities, and within the caller's effective scopes (narrowing).
   */
  check(request: MintRequest, ctx: RequestContext): TokenGrant {
    const { principal } = request;
    if (principal.status !== 'active' || principal.invalidatedAt) {
      throw conflict('The principal is deactivated or invalidated; it cannot get new tokens');
    }
    const holder = { kind: principal.kind, role: principal.role as Role, preset: principal.preset };
    const grant = grantToken(holder, request.scopes, request.expiresInDays, this.clock.now());
    assertWithinEffective(ctx, grant.scopes, 'The token');
    assertWithinProjects(ctx.token?.projects ?? null, request.projects ?? null);
    return grant;
  }

  async mint(request: MintRequest, ctx: RequestContext): Promise<MintedToken> {
    const grant = this.check(request, ctx);
    const tokenId = request.tokenId ?? randomUUID();
    const token = generateToken();
    await this.runner.run(
      tokenStream(tokenId),
      tokenDecider,
      {
        kind: 'mint',
        event: {
          tokenId,
          principalId: request.principal.id,
          name: request.name,
          scopes: grant.scopes,
          lane: grant.lane,
          digest: tokenDigest(token),
          expiresAt: grant.expiresAt,
          createdBy: ctx.principal?.id ?? 'system',
          rotatedFrom: request.rotatedFrom ?? null,
          ...(request.projects ? { projects: request.projects } : {}),
        },
      },
      ctx,
    );
    return {
      token,
      tokenId,
      principalId: request.principal.id,
      name: request.name,
      scopes: grant.scopes,
      lane: grant.lane,
      expiresAt: grant.expiresAt,
      projects: request.projects ?? null,
    };
  }
}
