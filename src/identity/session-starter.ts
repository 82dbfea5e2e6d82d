import { Inject, Injectable } from '@nestjs/common';
import { sessionDigest } from '../access/stored-credential.verifier.js';
import type { RequestContext } from '../kernel/request-context.js';
import { CLOCK, type Clock } from '../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { EventWriter } from '../storage/event-writer.js';
import { SessionStarted, userStream, type SsoSignIn } from '../events/identity.events.js';
import { newSessionValue } from './session-cookie.js';

export interface StartedSession {
  /** The cookie value: given to the browser once, recorded only as a digest. */
  value: string;
  expiresAt: Date;
}

@Injectable()
export class SessionStarter {
  constructor(
    private readonly writer: EventWriter,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async start(
    userId: string,
    ctx: RequestContext,
    mfaVerified = false,
    /** The identity provider the person signed in through, if they did. */
    sso?: SsoSignIn,
  ): Promise<StartedSession> {
    const value = newSessionValue();
    const expiresAt = new Date(
      this.clock.now().getTime() + this.config.sessionMaxHours * 3_600_000,
    );
    await this.writer.append(
      userStream(userId),
      [
        SessionStarted({
          userId,
          sessionDigest: sessionDigest(value),
          expiresAt: expiresAt.toISOString(),
          mfaVerified,
          ...(sso ? { sso } : {}),
        }),
      ],
      'any',
      ctx,
    );
    return { value, expiresAt };
  }
}
