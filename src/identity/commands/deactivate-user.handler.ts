import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { principalStream, TokensInvalidatedBefore } from '../../events/access.events.js';
import { callerOf } from '../../access/authority.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { EventWriter } from '../../storage/event-writer.js';
import { SessionTerminator } from '../session-terminator.js';
import type { DeactivateUserInput } from '../identity.inputs.js';
import { TeamRoster } from '../team-roster.js';

export class DeactivateUserCommand extends Command<{ userId: string; endedSessions: number }> {
  constructor(
    readonly input: DeactivateUserInput,
    readonly ctx: RequestContext,
  ) {
    super();
  }
}

/**
 * Deactivation is decided on the team stream; from that moment the guard refuses the user's
 * sessions and tokens (it checks status). Ending the sessions and cutting off the tokens are
 * then recorded as facts of their own.
 */
@CommandHandler(DeactivateUserCommand)
export class DeactivateUserHandler implements ICommandHandler<DeactivateUserCommand> {
  constructor(
    private readonly roster: TeamRoster,
    private readonly writer: EventWriter,
    private readonly sessions: SessionTerminator,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, ctx }: DeactivateUserCommand) {
    const { userId } = input;
    await this.roster.change({ kind: 'deactivate', actor: callerOf(ctx), userId }, ctx);
    const endedSessions = await this.sessions.endAll(userId, 'deactivated', ctx);
    const before = this.clock.now().toISOString();
    await this.writer.append(
      principalStream(userId),
      [TokensInvalidatedBefore({ principalId: userId, before })],
      'any',
      ctx,
    );
    return { userId, endedSessions };
  }
}
