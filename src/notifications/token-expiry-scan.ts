import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ApiTokenDoc } from '../../projections/api-tokens.projection.js';
import { CLOCK, type Clock } from '../common/clock.js';
import { PeriodicPass } from '../common/periodic-pass.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { WrongExpectedRevisionError } from '../eventstore/wrong-expected-revision.error.js';
import { TokenExpiryNoticed, tokenExpiryNoticeStream } from '../events/notifications.events.js';
import { systemContext } from '../kernel/request-context.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { EventWriter } from '../storage/event-writer.js';

const logger = new Logger('Notifications');
export const EXPIRY_NOTICE_DAYS = 7;
/** Tokens read per page ... */
export const SCAN_PAGE_SIZE = 200;
/** ... and pages per scan: at most 1,000 tokens a scan; the next scan goes on from there. */
export const SCAN_PAGES = 5;

/**
 * Hourly (and once at start): tokens that are live and expire within 7 days are noticed once
 * each (`TokenExpiryNoticed` on the token's own notice stream, appended only if that stream is
 * new), which channels subscribed to `token.expiring` hear of. Bounded: at most `pages` pages of
 * `pageSize` tokens, soonest expiry first, per scan; the next scan resumes after the last token
 * read (a keyset cursor), and starts over from the soonest once it has read to the end, so
 * every token in the window is noticed however many there are.
 */
@Injectable()
export class TokenExpiryScan extends PeriodicPass<number> {
  /** Where the next scan resumes; null: from the soonest expiry. */
  private resume: string | null = null;
  pageSize = SCAN_PAGE_SIZE;
  pages = SCAN_PAGES;

  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly writer: EventWriter,
  ) {
    super({ logger, failure: 'The token expiry scan failed', firstPassAfterMs: 5_000 });
  }

  protected override intervalMs(): number {
    const { sending, tokenScanMinutes } = this.config.notifications;
    return sending ? tokenScanMinutes * 60_000 : 0;
  }

  protected pass(): Promise<number> {
    return this.scan();
  }

  /** Notices the tokens due now; answers how many were noticed for the first time. */
  async scan(): Promise<number> {
    const now = this.clock.now().getTime();
    const until = new Date(now + EXPIRY_NOTICE_DAYS * 86_400_000).toISOString();
    const tokens = this.reads.collection<ApiTokenDoc>('api_tokens');
    const filter = {
      revokedAt: null,
      expiresAt: { $gt: new Date(now).toISOString(), $lte: until },
    };
    let noticed = 0;
    let cursor = this.resume;
    for (let read = 0; read < this.pages; read++) {
      const page = await tokens.find(filter, {
        limit: this.pageSize,
        sort: { expiresAt: 1 },
        ...(cursor ? { cursor } : {}),
      });
      for (const token of page.items) if (await this.notice(token)) noticed += 1;
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    this.resume = cursor;
    return noticed;
  }

  /** True when this token was noticed now, false when it had been before. */
  private async notice(token: ApiTokenDoc): Promise<boolean> {
    try {
      await this.writer.append(
        tokenExpiryNoticeStream(token.id),
        [
          TokenExpiryNoticed({
            tokenId: token.id,
            tokenName: token.name,
            principalId: token.principalId,
            expiresAt: token.expiresAt!,
          }),
        ],
        'no_stream',
        systemContext('token-expiry-scan'),
      );
      return true;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      return false;
    }
  }
}
