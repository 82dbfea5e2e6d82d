import { IsUUID } from 'class-validator';
import { callerOf } from '../../access/authority.js';
import { inviteStream } from '../../events/invite.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { ADMINS } from '../../kernel/roles.js';
import { decides } from '../../storage/deciding-handler.js';
import { inviteDecider } from './invite.decider.js';

export class RevokeInviteInput {
  @IsUUID()
  inviteId!: string;
}

export interface InviteRevoked {
  inviteId: string;
  status: string;
  changed: boolean;
}

export class RevokeInvite extends ProcedureCommand<RevokeInviteInput, InviteRevoked> {}

@Procedure.command(RevokeInvite, {
  name: 'revokeInvite',
  roles: ADMINS,
  scopes: ['members:manage'],
  input: RevokeInviteInput,
  description:
    'Withdraws a pending invite: its link stops working. Not an invite to a role above yours.',
})
export class RevokeInviteHandler extends decides(inviteDecider).on(
  RevokeInvite,
  ({ input, ctx }) => ({
    stream: inviteStream(input.inviteId),
    command: { kind: 'revoke', actor: callerOf(ctx), inviteId: input.inviteId },
    answer: (decision) => ({
      inviteId: input.inviteId,
      status: 'revoked',
      changed: decision.events.length > 0,
    }),
  }),
) {}
