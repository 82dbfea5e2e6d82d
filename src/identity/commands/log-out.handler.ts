import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { RequestContext } from '../../kernel/request-context.js';
import { EventWriter } from '../../storage/event-writer.js';
import { SessionEnded, userStream } from '../../events/identity.events.js';

export class LogOutCommand extends Command<void> {
  constructor(readonly ctx: RequestContext) {
    super();
  }
}

@CommandHandler(LogOutCommand)
export class LogOutHandler implements ICommandHandler<LogOutCommand> {
  constructor(private readonly writer: EventWriter) {}

  async execute({ ctx }: LogOutCommand): Promise<void> {
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
