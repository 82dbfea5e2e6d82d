import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Logger } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsInt, Max, MaxLength, Min } from 'class-validator';
import { Omittable } from '../../common/omittable.js';
import { callerOf } from '../../access/authority.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { conflict } from '../../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { inviteStream, inviteSubject } from '../../events/invite.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { HUMANS } from '../../kernel/roles.js';
import { MAIL_SENDER, type MailSender } from '../../mail/mail-sender.port.js';
import { PersonalData } from '../../privacy/personal-data.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { credentialByEmail } from '../credential-lookup.js';
import { normaliseEmail } from '../commands/normalise-email.js';
import { inviteDecider } from './invite.decider.js';
import { inviteLinkToken } from './invite-token.js';
import { INVITE_SCOPE, INVITER_ROLES } from './inviter-standing.js';

const logger = new Logger('Invites');
const DAY_MS = 86_400_000;

export class InviteMemberInput {
  @Transform(normaliseEmail)
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email!: string;

  @IsIn(HUMANS)
  role!: (typeof HUMANS)[number];

  /** How long the link works: 1-30 days, 7 by default. */
  @Omittable()
  @IsInt()
  @Min(1)
  @Max(30)
  expiresInDays?: number;
}

export interface InviteCreated {
  inviteId: string;
  email: string;
  role: string;
  expiresAt: string;
}

export class InviteMember extends ProcedureCommand<InviteMemberInput, InviteCreated> {}

/**
 * Records the invite (rank: never a role above the caller's own nor wider than its credential)
 * and mails its single-use link. The link's secret is returned to nobody: only its keyed digest
 * is recorded, and only the invitee's mailbox holds it.
 */
@Procedure.command(InviteMember, {
  name: 'inviteMember',
  // The same standing is required again of the inviter when the invite is accepted.
  roles: INVITER_ROLES,
  scopes: [INVITE_SCOPE],
  input: InviteMemberInput,
  description:
    'Mails a single-use link (1-30 days, 7 by default) that creates an account for this email with this role; never a role above yours or wider than your credential. The link is returned to nobody.',
})
export class InviteMemberHandler implements ICommandHandler<InviteMember> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly personal: PersonalData,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(MAIL_SENDER) private readonly mail: MailSender,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ input, ctx }: InviteMember): Promise<InviteCreated> {
    const actor = callerOf(ctx);
    if (await credentialByEmail(this.reads, this.personal, input.email)) {
      throw conflict('An account with this email already exists');
    }
    const inviteId = randomUUID();
    const secret = randomBytes(32).toString('base64url');
    const days = input.expiresInDays ?? 7;
    const expiresAt = new Date(this.clock.now().getTime() + days * DAY_MS).toISOString();
    await this.runner.run(
      inviteStream(inviteId),
      inviteDecider,
      {
        kind: 'invite',
        actor,
        inviteId,
        email: (await this.personal.protect(inviteSubject(inviteId), input.email))!,
        emailDigest: this.personal.lookupDigest('email', input.email),
        role: input.role,
        tokenDigest: this.box.digest(secret),
        expiresAt,
      },
      ctx,
    );
    const link = `${this.config.publicUrl}/api/auth/invite?token=${inviteLinkToken(inviteId, secret)}`;
    await this.mail.send({
      to: input.email,
      subject: 'You are invited to Slipway',
      text:
        `You are invited to join a Slipway team as ${input.role}.\n\n` +
        `To create your account (${input.email}), open this link within ${days} day${days === 1 ? '' : 's'}. ` +
        `It works once:\n\n${link}\n\n` +
        'If you did not expect this, ignore this message.\n',
    });
    logger.log(`Invite ${inviteId} mailed`);
    return { inviteId, email: input.email, role: input.role, expiresAt };
  }
}
