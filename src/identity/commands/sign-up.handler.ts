import type { PendingEvent } from '../../eventstore/define-event.js';
import { PersonalData } from '../../privacy/personal-data.js';
import { userSubject } from '../../events/privacy.events.js';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsEmail, MaxLength } from 'class-validator';
import { actingAs, type RequestContext } from '../../kernel/request-context.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { WrongExpectedRevisionError } from '../../eventstore/wrong-expected-revision.error.js';
import {
  memberEmailStream,
  TEAM_MEMBERS_STREAM,
  UserSignedUp,
} from '../../events/identity.events.js';
import { memberEmailDecider } from '../member-email.decider.js';
import { DisplayName } from '../../common/field-rules.js';
import { normaliseEmail } from './normalise-email.js';
import { NewPassword } from '../credential-fields.js';
import { PasswordHasher } from '../password-hasher.js';
import { teamMembersDecider, type HumanRole, type TeamCommand } from '../team-members.decider.js';

type SignUpDecision = Extract<TeamCommand, { kind: 'signUp' }>;
import { SessionStarter, type StartedSession } from '../session-starter.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';

export interface SignedUpUser {
  user: { id: string; email: string; name: string; role: string };
  session: StartedSession;
}

export class SignUpInput {
  @Transform(normaliseEmail)
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email!: string;

  @NewPassword()
  password!: string;

  @DisplayName()
  name!: string;
}

/** Hashes first (slow, outside the retry loop); the team decider picks owner or viewer. */
@Injectable()
export class SignUpHandler {
  constructor(
    private readonly runner: DeciderRunner,
    @Inject(PasswordHasher) private readonly hasher: PasswordHasher,
    private readonly sessions: SessionStarter,
    private readonly personal: PersonalData,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * After the founder, sign-up needs SLIPWAY_OPEN_SIGNUP (the user joins as viewer) or an
   * accepted invite (its role, and the user id the invite recorded).
   */
  async execute(
    input: SignUpInput,
    ctx: RequestContext,
    invite?: { role: HumanRole; userId: string },
  ): Promise<SignedUpUser> {
    const passwordHash = await this.hasher.hash(input.password);
    const { user, actor } = await this.join(input, passwordHash, ctx, invite);
    const session = await this.sessions.start(user.id, actor);
    return { user, session };
  }

  /**
   * Records the new member (and nothing else): the password hash is made by the caller, so a
   * member who joins through an identity provider gets one nobody knows.
   */
  async join(
    person: { email: string; name: string },
    passwordHash: string,
    ctx: RequestContext,
    invite?: { role: HumanRole; userId: string },
  ): Promise<{ user: SignedUpUser['user']; actor: RequestContext }> {
    const userId = invite?.userId ?? randomUUID();
    const subject = userSubject(userId);
    const command = {
      kind: 'signUp' as const,
      userId,
      email: person.email,
      emailDigest: this.personal.lookupDigest('email', person.email),
      sealedEmail: (await this.personal.protect(subject, person.email))!,
      sealedName: (await this.personal.protect(subject, person.name))!,
      passwordHash,
      openSignup: this.config.openSignup,
      invitedAs: invite?.role,
    };
    // The new user is the actor of their own sign-up, with the role the decision gave them.
    const principalFor = (role: string) => ({
      id: userId,
      kind: 'user' as const,
      role: role as HumanRole,
      name: person.name,
    });
    const roleIn = (events: PendingEvent[]) =>
      String(events.find((e) => e.type === UserSignedUp.type)?.data.role);
    const actor = (events: PendingEvent[]) => actingAs(ctx, principalFor(roleIn(events)));
    const decision = await this.record(command, actor);
    const role = roleIn(decision);
    return {
      user: { id: userId, email: person.email, name: person.name, role },
      actor: actingAs(ctx, principalFor(role)),
    };
  }

  /**
   * The founder is recorded on the team stream, claimed while it is empty; everyone after on
   * their own email stream. The team decider decides both (role, email not taken there).
   */
  private async record(
    command: SignUpDecision,
    actor: (events: PendingEvent[]) => RequestContext,
  ): Promise<PendingEvent[]> {
    for (;;) {
      const team = await this.runner.load(TEAM_MEMBERS_STREAM, teamMembersDecider);
      const [signedUp] = teamMembersDecider.decide(command, team);
      if (team.members.size > 0) {
        const stream = memberEmailStream(command.emailDigest);
        // A concurrent sign-up with this email makes the append conflict; the retry refuses.
        await this.runner.run(stream, memberEmailDecider, { signedUp }, actor, 2);
        return [signedUp];
      }
      try {
        return (await this.runner.run(TEAM_MEMBERS_STREAM, teamMembersDecider, command, actor, 1))
          .events;
      } catch (error) {
        // Someone else founded the team meanwhile: sign up as everyone after them does.
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
      }
    }
  }
}
