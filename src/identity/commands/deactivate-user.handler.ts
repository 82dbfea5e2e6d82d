import { Inject, Injectable } from '@nestjs/common';
import { IsUUID } from 'class-validator';
import { principalStream, TokensInvalidatedBefore } from '../../events/access.events.js';
import { callerOf } from '../../access/authority.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { EventWriter } from '../../storage/event-writer.js';
import { SessionTerminator } from '../session-terminator.js';
import { TeamRoster } from '../team-roster.js';

export class DeactivateUserInput {
  @IsUUID()
  userId!: string;
}

/**
 * Deactivation is decided on the team stream; from that moment the guard refuses the user's
 * sessions and tokens (it checks status). Ending the sessions and cutting off the tokens are
 * then recorded as facts of their own.
 */
@Injectable()
export class DeactivateUserHandler {
  constructor(
    private readonly roster: TeamRoster,
    private readonly writer: EventWriter,
    private readonly sessions: SessionTerminator,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(
    input: DeactivateUserInput,
    ctx: RequestContext,
  ): Promise<{ userId: string; endedSessions: number }> {
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
