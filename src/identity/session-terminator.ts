import { Inject, Injectable } from '@nestjs/common';
import type { SessionDoc } from '../../projections/sessions.projection.js';
import type { RequestContext } from '../kernel/request-context.js';
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
    const { items } = await this.reads
      .collection<SessionDoc>('sessions')
      .find({ userId, endedAt: null }, { limit: 1000 });
    if (items.length === 0) return 0;
    const ended = items.map((s) => SessionEnded({ userId, sessionDigest: s.id, reason }));
    await this.writer.append(userStream(userId), ended, 'any', ctx);
    return items.length;
  }
}
