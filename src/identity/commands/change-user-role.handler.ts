import { Injectable } from '@nestjs/common';
import { IsIn, IsUUID } from 'class-validator';
import { callerOf } from '../../access/authority.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { HUMANS } from '../../kernel/roles.js';
import { TeamRoster } from '../team-roster.js';

export class ChangeUserRoleInput {
  @IsUUID()
  userId!: string;

  @IsIn(HUMANS)
  role!: (typeof HUMANS)[number];
}

@Injectable()
export class ChangeUserRoleHandler {
  constructor(private readonly roster: TeamRoster) {}

  async execute(
    input: ChangeUserRoleInput,
    ctx: RequestContext,
  ): Promise<{
    userId: string;
    role: string;
    changed: boolean;
  }> {
    const actor = callerOf(ctx);
    const decision = await this.roster.change(
      { kind: 'changeRole', actor, userId: input.userId, role: input.role },
      ctx,
    );
    return { userId: input.userId, role: input.role, changed: decision.events.length > 0 };
  }
}
