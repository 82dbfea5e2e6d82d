import { Injectable } from '@nestjs/common';
import { PageInput } from '../access/page.input.js';
import type { RequestContext } from '../kernel/request-context.js';
import { LegacyProcedure as Procedure } from '../kernel/procedure.js';
import { ChangeUserRoleHandler, ChangeUserRoleInput } from './commands/change-user-role.handler.js';
import { DeactivateUserHandler, DeactivateUserInput } from './commands/deactivate-user.handler.js';
import { ListPrincipalsHandler } from '../access/principals.query.js';
import { HUMANS, ADMINS } from '../kernel/roles.js';

@Injectable()
export class IdentityProcedures {
  constructor(
    private readonly changeUserRoleHandler: ChangeUserRoleHandler,
    private readonly deactivateUserHandler: DeactivateUserHandler,
    private readonly listPrincipalsHandler: ListPrincipalsHandler,
  ) {}

  @Procedure.read({
    name: 'members',
    roles: HUMANS,
    scopes: ['members:read'],
    input: PageInput,
    description: 'Users of the team with their roles and status, oldest first.',
  })
  members(input: PageInput) {
    return this.listPrincipalsHandler.execute('user', input.limit ?? 50, input.cursor);
  }

  @Procedure.command({
    name: 'changeUserRole',
    roles: ADMINS,
    scopes: ['members:manage'],
    input: ChangeUserRoleInput,
    description:
      'Changes a user’s role: never of someone ranked above you, never to a role above yours or wider than your credential; the last owner stays.',
  })
  changeUserRole(input: ChangeUserRoleInput, ctx: RequestContext) {
    return this.changeUserRoleHandler.execute(input, ctx);
  }

  @Procedure.command({
    name: 'deactivateUser',
    roles: ADMINS,
    scopes: ['members:manage'],
    input: DeactivateUserInput,
    description:
      'Deactivates a user ranked no higher than you: ends their sessions and refuses their tokens.',
  })
  deactivateUser(input: DeactivateUserInput, ctx: RequestContext) {
    return this.deactivateUserHandler.execute(input, ctx);
  }
}
