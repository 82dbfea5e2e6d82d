import { Inject, Injectable } from '@nestjs/common';
import type { SessionDoc } from '../../projections/sessions.projection.js';
import type { RequestContext } from '../kernel/request-context.js';
import { readAll } from '../readstore/read-page.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { EventWriter } from '../storage/event-writer.js';
import { SessionEnded, userStream } from '../events/identity.events.js';

/** Ends every open session of a user (deactivation, password reset); returns how many. */
@Injectable()
export class SessionTerminator {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly writer: EventWriter,
  ) {}

  async endAll(
    userId: string,
    reason: 'deactivated' | 'password-reset',
    ctx: RequestContext,
  ): Promise<number> {
    // Every one: sessions that expired unended count too, so a first page could miss a live one.
    const items = await readAll(this.reads.collection<SessionDoc>('sessions'), {
      userId,
      endedAt: null,
    });
    for (let at = 0; at < items.length; at += 1000) {
      const ended = items
        .slice(at, at + 1000)
        .map((s) => SessionEnded({ userId, sessionDigest: s.id, reason }));
      await this.writer.append(userStream(userId), ended, 'any', ctx);
    }
    return items.length;
  }
}
