import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../kernel/request-context.js';
import { LegacyProcedure as Procedure } from '../../kernel/procedure.js';
import { ADMINS } from '../../kernel/roles.js';
import { InviteMemberHandler, InviteMemberInput } from './invite-member.handler.js';
import { INVITE_SCOPE, INVITER_ROLES } from './inviter-standing.js';
import { RevokeInviteHandler, RevokeInviteInput } from './invite-use.handlers.js';
import { InvitesInput, ListInvitesHandler } from './invites.query.js';

@Injectable()
export class InviteProcedures {
  constructor(
    private readonly inviteMemberHandler: InviteMemberHandler,
    private readonly revokeInviteHandler: RevokeInviteHandler,
    private readonly listInvitesHandler: ListInvitesHandler,
  ) {}

  @Procedure.command({
    name: 'inviteMember',
    // The same standing is required again of the inviter when the invite is accepted.
    roles: INVITER_ROLES,
    scopes: [INVITE_SCOPE],
    input: InviteMemberInput,
    description:
      'Mails a single-use link (1-30 days, 7 by default) that creates an account for this email with this role; never a role above yours or wider than your credential. The link is returned to nobody.',
  })
  inviteMember(input: InviteMemberInput, ctx: RequestContext) {
    return this.inviteMemberHandler.execute(input, ctx);
  }

  @Procedure.command({
    name: 'revokeInvite',
    roles: ADMINS,
    scopes: ['members:manage'],
    input: RevokeInviteInput,
    description:
      'Withdraws a pending invite: its link stops working. Not an invite to a role above yours.',
  })
  revokeInvite(input: RevokeInviteInput, ctx: RequestContext) {
    return this.revokeInviteHandler.execute(input, ctx);
  }

  @Procedure.read({
    name: 'invites',
    roles: ADMINS,
    scopes: ['members:read'],
    input: InvitesInput,
    description:
      'Invites newest first, with status pending, accepted, revoked or expired; never the link.',
  })
  invites(input: InvitesInput) {
    return this.listInvitesHandler.execute(input);
  }
}
