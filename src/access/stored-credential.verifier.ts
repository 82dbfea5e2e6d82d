import { createHash } from 'node:crypto';
import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { ApiTokenDoc } from '../../projections/api-tokens.projection.js';
import type { PrincipalDoc } from '../../projections/principals.projection.js';
import type { SessionDoc } from '../../projections/sessions.projection.js';
import { AppError, attributed } from '../common/app-error.js';
import { CLOCK, type Clock } from '../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { PRIMARY_STORE, READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { ReadThrough } from '../readstore/read-through.js';
import type {
  AuthenticatedIdentity,
  CredentialVerifier,
  HeldCredential,
} from './authenticated-identity.js';
import { PersonalData } from '../privacy/personal-data.js';
import { principalOf } from './principal-of.js';
import { hasValidChecksum, tokenDigest } from './token-format.js';
import { SESSION_ACTIVITY, TOKEN_USAGE, UsageTracker } from './usage-tracker.js';

export function sessionDigest(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * Verifies tokens and sessions against the read models the identity projections keep, in the
 * order of spec 7.2: unknown, revoked, expired, then invalidated (principal invalidated or
 * deactivated, tokens cut off before a time, or a rotation overlap that has run out).
 */
@Injectable()
export class StoredCredentialVerifier
  implements CredentialVerifier, OnModuleInit, OnApplicationShutdown
{
  readonly tokenUsage: UsageTracker;
  private readonly sessionActivity: UsageTracker;
  /** Credentials and principals as last read, until the read models change. */
  private readonly docs: ReadThrough;

  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(PRIMARY_STORE) primary: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly personal: PersonalData,
  ) {
    this.docs = new ReadThrough(reads);
    this.tokenUsage = new UsageTracker(primary, TOKEN_USAGE, clock);
    this.sessionActivity = new UsageTracker(primary, SESSION_ACTIVITY, clock);
  }

  async onModuleInit(): Promise<void> {
    await this.tokenUsage.start();
    await this.sessionActivity.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.tokenUsage.stop();
    await this.sessionActivity.stop();
  }

  async verifyToken(value: string): Promise<AuthenticatedIdentity> {
    if (!hasValidChecksum(value)) throw new AppError('TOKEN_INVALID', 'The token is not known');
    const digest = tokenDigest(value);
    const token = await this.docs.read(`token:${digest}`, async () => {
      const { items } = await this.reads
        .collection<ApiTokenDoc>('api_tokens')
        .find({ digest }, { limit: 1 });
      return items[0];
    });
    const identity = await this.tokenIdentity(token);
    this.tokenUsage.touch(identity.token!.id);
    return identity;
  }

  /**
   * The same checks again for a credential verified before (a stream that outlives its
   * request), by its id or session digest: nothing hashed, and not counted as a use.
   */
  async recheck(held: HeldCredential): Promise<AuthenticatedIdentity> {
    if (held.method === 'token') {
      return this.tokenIdentity(
        (await this.reads.collection<ApiTokenDoc>('api_tokens').get(held.tokenId)) ?? undefined,
      );
    }
    return this.sessionIdentity(held.sessionDigest);
  }

  private async tokenIdentity(token: ApiTokenDoc | undefined): Promise<AuthenticatedIdentity> {
    if (!token) throw new AppError('TOKEN_INVALID', 'The token is not known');
    const now = this.clock.now();
    const refuse = (error: AppError) => attributed(error, token.principalId, token.id);
    if (token.revokedAt) throw refuse(new AppError('TOKEN_REVOKED', 'The token was revoked'));
    if (token.expiresAt && Date.parse(token.expiresAt) <= now.getTime()) {
      throw refuse(
        new AppError('TOKEN_EXPIRED', 'The token has expired', { expiredAt: token.expiresAt }),
      );
    }
    const principal = await this.principal(token.principalId);
    const invalidated =
      !principal ||
      principal.status !== 'active' ||
      principal.invalidatedAt !== null ||
      (principal.tokensInvalidatedBefore !== null &&
        Date.parse(token.createdAt) <= Date.parse(principal.tokensInvalidatedBefore)) ||
      (token.refuseAfter !== null && Date.parse(token.refuseAfter) <= now.getTime());
    if (invalidated || !principal) {
      throw refuse(
        new AppError('TOKEN_INVALIDATED', 'The token is no longer valid for its principal'),
      );
    }
    return {
      principal: await principalOf(principal, this.personal),
      method: 'token',
      token: {
        id: token.id,
        name: token.name,
        scopes: token.scopes,
        lane: token.lane,
        expiresAt: token.expiresAt,
        createdAt: token.createdAt,
        projects: token.projects ?? null,
      },
      session: null,
      sessionDigest: null,
    };
  }

  private principal(id: string): Promise<PrincipalDoc | null> {
    return this.docs.read(`principal:${id}`, () =>
      this.reads.collection<PrincipalDoc>('principals').get(id),
    );
  }

  async verifySession(value: string): Promise<AuthenticatedIdentity> {
    if (value.length > 200) throw sessionExpired();
    const identity = await this.sessionIdentity(sessionDigest(value));
    this.sessionActivity.touch(identity.sessionDigest!);
    return identity;
  }

  private async sessionIdentity(digest: string): Promise<AuthenticatedIdentity> {
    const session = await this.docs.read(`session:${digest}`, () =>
      this.reads.collection<SessionDoc>('sessions').get(digest),
    );
    if (!session || session.endedAt) throw sessionExpired();
    const now = this.clock.now().getTime();
    if (Date.parse(session.expiresAt) <= now) throw sessionExpired();
    const lastSeen =
      (await this.sessionActivity.lastUsed(digest))?.getTime() ?? Date.parse(session.startedAt);
    if (now - lastSeen > this.config.sessionIdleMinutes * 60_000) throw sessionExpired();
    const principal = await this.principal(session.userId);
    if (!principal || principal.status !== 'active') {
      throw attributed(sessionExpired(), session.userId);
    }
    return {
      principal: await principalOf(principal, this.personal),
      method: 'session',
      token: null,
      session: {
        startedAt: session.startedAt,
        expiresAt: session.expiresAt,
        mfaVerified: session.mfaVerified === true,
        method: session.method ?? 'password',
        providerId: session.providerId ?? null,
        amr: session.amr ?? [],
      },
      sessionDigest: digest,
    };
  }
}

function sessionExpired(): AppError {
  return new AppError('SESSION_EXPIRED', 'The session is unknown or expired');
}
