import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/clock.js';
import { conflict } from '../../common/app-error.js';
import { DisplayName } from '../../common/field-rules.js';
import { inviteStream } from '../../events/invite.events.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { PersonalData } from '../../privacy/personal-data.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { NewPassword, OneTimeSecret } from '../credential-fields.js';
import { credentialByEmail } from '../credential-lookup.js';
import { SignUpHandler, type SignedUpUser } from '../commands/sign-up.handler.js';
import { TeamRoster } from '../team-roster.js';
import { inviteDecider, inviteIsLive, invalidInvite, type InviteState } from './invite.decider.js';
import {
  assertInviterMayStillGrant,
  inviterMayStillGrant,
  type InviterStanding,
} from './inviter-standing.js';
import { parseInviteToken } from './invite-token.js';

export class AcceptInviteInput {
  @OneTimeSecret()
  token!: string;

  @NewPassword()
  password!: string;

  @DisplayName()
  name!: string;
}

/**
 * Accepting: the invite is claimed on its stream first (expected revision, so it is used at most
 * once even by concurrent requests), then the account is created with the invite's email and
 * role, as its own actor. An email taken meanwhile is refused before the invite is claimed, and
 * so is an invite whose inviter is no longer active or could no longer grant its role (judged
 * on the team stream as it is now).
 */
@Injectable()
export class AcceptInviteHandler {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly signUp: SignUpHandler,
    private readonly roster: TeamRoster,
    private readonly personal: PersonalData,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Whether a link still works (for the redirect into the dashboard), without using it. */
  async isLive(token: unknown): Promise<boolean> {
    const parsed = parseInviteToken(token);
    if (!parsed) return false;
    const state = await this.runner.load(inviteStream(parsed.inviteId), inviteDecider);
    const live = inviteIsLive(state, this.box.digest(parsed.secret), this.clock.now().getTime());
    if (!live || !state.invite) return false;
    return inviterMayStillGrant(await this.inviterNow(state), state.invite.role);
  }

  /** The invite's sender as the team stream has them now, or null when unknown. */
  private async inviterNow(state: InviteState): Promise<InviterStanding | null> {
    const by = state.invite?.invitedBy;
    return by ? this.roster.standing(by.userId, by.role) : null;
  }

  async execute(input: AcceptInviteInput, ctx: RequestContext): Promise<SignedUpUser> {
    const parsed = parseInviteToken(input.token);
    if (!parsed) throw invalidInvite();
    const stream = inviteStream(parsed.inviteId);
    const tokenDigest = this.box.digest(parsed.secret);
    const now = this.clock.now().getTime();
    const state = await this.runner.load(stream, inviteDecider);
    if (!inviteIsLive(state, tokenDigest, now) || !state.invite) throw invalidInvite();
    const inviter = await this.inviterNow(state);
    assertInviterMayStillGrant(inviter, state.invite.role);
    const email = await this.personal.reveal(state.invite.email);
    if (!email || !email.includes('@')) throw invalidInvite();
    if (await credentialByEmail(this.reads, this.personal, email)) {
      throw conflict('An account with this email already exists');
    }
    const userId = randomUUID();
    await this.runner.run(
      stream,
      inviteDecider,
      { kind: 'accept', inviteId: parsed.inviteId, tokenDigest, userId, now, inviter },
      ctx,
    );
    return this.signUp.execute({ email, password: input.password, name: input.name }, ctx, {
      role: state.invite.role,
      userId,
    });
  }
}
