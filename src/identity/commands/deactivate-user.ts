import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import { callerOf } from '../../access/authority.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { principalStream, TokensInvalidatedBefore } from '../../events/access.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { ADMINS } from '../../kernel/roles.js';
import { EventWriter } from '../../storage/event-writer.js';
import { SessionTerminator } from '../session-terminator.js';
import { TeamRoster } from '../team-roster.js';

export class DeactivateUserInput {
  @IsUUID()
  userId!: string;
}

export class DeactivateUser extends ProcedureCommand<
  DeactivateUserInput,
  { userId: string; endedSessions: number }
> {}

/**
 * Deactivation is decided on the team stream; from that moment the guard refuses the user's
 * sessions and tokens (it checks status). Ending the sessions and cutting off the tokens are
 * then recorded as facts of their own.
 */
@Procedure.command(DeactivateUser, {
  name: 'deactivateUser',
  roles: ADMINS,
  scopes: ['members:manage'],
  input: DeactivateUserInput,
  description:
    'Deactivates a user ranked no higher than you: ends their sessions and refuses their tokens.',
})
export class DeactivateUserHandler implements ICommandHandler<DeactivateUser> {
  constructor(
    private readonly roster: TeamRoster,
    private readonly writer: EventWriter,
    private readonly sessions: SessionTerminator,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({
    input,
    ctx,
  }: DeactivateUser): Promise<{ userId: string; endedSessions: number }> {
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
