import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../kernel/request-context.js';
import { EventWriter } from '../../storage/event-writer.js';
import { SessionEnded, userStream } from '../../events/identity.events.js';

@Injectable()
export class LogOutHandler {
  constructor(private readonly writer: EventWriter) {}

  async execute(ctx: RequestContext): Promise<void> {
    if (!ctx.principal || !ctx.sessionDigest) return;
    const userId = ctx.principal.id;
    await this.writer.append(
      userStream(userId),
      [SessionEnded({ userId, sessionDigest: ctx.sessionDigest, reason: 'logout' })],
      'any',
      ctx,
    );
  }
}
