import type { ICommandHandler } from '@nestjs/cqrs';
import { IsIn, IsUUID } from 'class-validator';
import { callerOf } from '../../access/authority.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { ADMINS, HUMANS } from '../../kernel/roles.js';
import { TeamRoster } from '../team-roster.js';

export class ChangeUserRoleInput {
  @IsUUID()
  userId!: string;

  @IsIn(HUMANS)
  role!: (typeof HUMANS)[number];
}

export interface UserRoleChanged {
  userId: string;
  role: string;
  changed: boolean;
}

export class ChangeUserRole extends ProcedureCommand<ChangeUserRoleInput, UserRoleChanged> {}

@Procedure.command(ChangeUserRole, {
  name: 'changeUserRole',
  roles: ADMINS,
  scopes: ['members:manage'],
  input: ChangeUserRoleInput,
  description:
    'Changes a user’s role: never of someone ranked above you, never to a role above yours or wider than your credential; the last owner stays.',
})
export class ChangeUserRoleHandler implements ICommandHandler<ChangeUserRole> {
  constructor(private readonly roster: TeamRoster) {}

  async execute({ input, ctx }: ChangeUserRole): Promise<UserRoleChanged> {
    const actor = callerOf(ctx);
    const decision = await this.roster.change(
      { kind: 'changeRole', actor, userId: input.userId, role: input.role },
      ctx,
    );
    return { userId: input.userId, role: input.role, changed: decision.events.length > 0 };
  }
}
