import { Injectable, Logger } from '@nestjs/common';
import { SSO_REFUSALS_STREAM, SsoSignInRefused } from '../../events/sso.events.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { EventWriter } from '../../storage/event-writer.js';
import type { SsoRefusal } from './sso-refusal.js';

const logger = new Logger('SingleSignOn');

/** Puts each refused sign-in through a provider on the audit trail (`SsoSignInRefused`). */
@Injectable()
export class SsoRefusals {
  constructor(private readonly writer: EventWriter) {}

  async record(refusal: SsoRefusal, ctx: RequestContext): Promise<void> {
    // The reason is one of a fixed list and the provider id matched [a-z0-9-]: safe to log.
    logger.warn(`Sign-in refused through ${refusal.providerId ?? '-'}: ${refusal.reason}`);
    await this.writer.append(
      SSO_REFUSALS_STREAM,
      [
        SsoSignInRefused({
          providerId: refusal.providerId,
          reason: refusal.reason,
          subjectDigest: refusal.subjectDigest,
          emailDigest: refusal.emailDigest,
        }),
      ],
      'any',
      ctx,
    );
  }
}
