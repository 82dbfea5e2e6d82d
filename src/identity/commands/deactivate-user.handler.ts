import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { SessionDoc } from '../../../projections/sessions.projection.js';
import { principalStream, TokensInvalidatedBefore } from '../../access/access.events.js';
import type { RequestContext } from '../../access/request-context.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { EventWriter } from '../../storage/event-writer.js';
import { SessionEnded, TEAM_MEMBERS_STREAM, userStream } from '../identity.events.js';
import type { DeactivateUserInput } from '../identity.inputs.js';
import { teamMembersDecider } from '../team-members.decider.js';

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
    private readonly runner: DeciderRunner,
    private readonly writer: EventWriter,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, ctx }: DeactivateUserCommand) {
    const { userId } = input;
    await this.runner.run(
      TEAM_MEMBERS_STREAM,
      teamMembersDecider,
      { kind: 'deactivate', actor: ctx.principal!, userId },
      ctx,
    );
    const { items } = await this.reads
      .collection<SessionDoc>('sessions')
      .find({ userId, endedAt: null }, { limit: 1000 });
    if (items.length > 0) {
      const ended = items.map((s) =>
        SessionEnded({ userId, sessionDigest: s.id, reason: 'deactivated' }),
      );
      await this.writer.append(userStream(userId), ended, 'any', ctx);
    }
    const before = this.clock.now().toISOString();
    await this.writer.append(
      principalStream(userId),
      [TokensInvalidatedBefore({ principalId: userId, before })],
      'any',
      ctx,
    );
    return { userId, endedSessions: items.length };
  }
}
