import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { callerOf } from '../../access/authority.js';
import type { RequestContext } from '../../kernel/request-context.js';
import type { ChangeUserRoleInput } from '../identity.inputs.js';
import { TeamRoster } from '../team-roster.js';

export class ChangeUserRoleCommand extends Command<{
  userId: string;
  role: string;
  changed: boolean;
}> {
  constructor(
    readonly input: ChangeUserRoleInput,
    readonly ctx: RequestContext,
  ) {
    super();
  }
}

@CommandHandler(ChangeUserRoleCommand)
export class ChangeUserRoleHandler implements ICommandHandler<ChangeUserRoleCommand> {
  constructor(private readonly roster: TeamRoster) {}

  async execute({ input, ctx }: ChangeUserRoleCommand) {
    const actor = callerOf(ctx);
    const decision = await this.roster.change(
      { kind: 'changeRole', actor, userId: input.userId, role: input.role },
      ctx,
    );
    return { userId: input.userId, role: input.role, changed: decision.events.length > 0 };
  }
}
