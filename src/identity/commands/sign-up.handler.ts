import type { PendingEvent } from '../../eventstore/define-event.js';
import { PersonalData } from '../../audit/privacy/personal-data.js';
import { userSubject } from '../../audit/privacy/privacy.events.js';
import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { actingAs, type RequestContext } from '../../access/request-context.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { TEAM_MEMBERS_STREAM, UserSignedUp } from '../identity.events.js';
import type { SignUpInput } from '../identity.inputs.js';
import { PasswordHasher } from '../password-hasher.js';
import { teamMembersDecider, type HumanRole } from '../team-members.decider.js';
import { SessionStarter, type StartedSession } from '../session-starter.js';

export interface SignedUpUser {
  user: { id: string; email: string; name: string; role: string };
  session: StartedSession;
}

export class SignUpCommand extends Command<SignedUpUser> {
  constructor(
    readonly input: SignUpInput,
    readonly ctx: RequestContext,
  ) {
    super();
  }
}

/** Hashes first (slow, outside the retry loop); the team decider picks owner or viewer. */
@CommandHandler(SignUpCommand)
export class SignUpHandler implements ICommandHandler<SignUpCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    @Inject(PasswordHasher) private readonly hasher: PasswordHasher,
    private readonly sessions: SessionStarter,
    private readonly personal: PersonalData,
  ) {}

  async execute({ input, ctx }: SignUpCommand): Promise<SignedUpUser> {
    const userId = randomUUID();
    const passwordHash = await this.hasher.hash(input.password);
    const subject = userSubject(userId);
    const command = {
      kind: 'signUp' as const,
      userId,
      email: input.email,
      emailDigest: this.personal.lookupDigest('email', input.email),
      sealedEmail: this.personal.protect(subject, input.email)!,
      sealedName: this.personal.protect(subject, input.name)!,
      passwordHash,
    };
    // The new user is the actor of their own sign-up, with the role the decision gave them.
    const principalFor = (role: string) => ({
      id: userId,
      kind: 'user' as const,
      role: role as HumanRole,
      name: input.name,
    });
    const roleIn = (events: PendingEvent[]) =>
      String(events.find((e) => e.type === UserSignedUp.type)?.data.role);
    const decision = await this.runner.run(
      TEAM_MEMBERS_STREAM,
      teamMembersDecider,
      command,
      (events) => actingAs(ctx, principalFor(roleIn(events))),
      60,
    );
    const role = roleIn(decision.events);
    const principal = principalFor(role);
    const session = await this.sessions.start(userId, actingAs(ctx, principal));
    return { user: { id: userId, email: input.email, name: input.name, role }, session };
  }
}
