import { Injectable } from '@nestjs/common';
import { actingAs, type RequestContext } from '../../kernel/request-context.js';
import { SessionStarter, type StartedSession } from '../session-starter.js';
import { amrIsMultiFactor } from './provider-mfa.js';
import { SsoMembers } from './sso-members.js';
import { SsoProtocol } from './sso-protocol.js';
import type { SsoTransaction } from './sso-transaction.js';

/**
 * The end of a sign-in through a provider: the verified answer, the member it is, and a session
 * that says which provider and `amr` it came with. The session counts as MFA-verified only when
 * the owner trusts the provider's MFA and its `amr` names more than one factor.
 */
@Injectable()
export class SsoSignInHandler {
  constructor(
    private readonly protocol: SsoProtocol,
    private readonly members: SsoMembers,
    private readonly sessions: SessionStarter,
  ) {}

  async execute(
    callback: URL,
    transaction: SsoTransaction,
    ctx: RequestContext,
  ): Promise<{ session: StartedSession; userId: string }> {
    const person = await this.protocol.finish(callback, transaction);
    const principal = await this.members.signIn(person, ctx);
    const mfaVerified = person.settings.trustProviderMfa && amrIsMultiFactor(person.amr);
    const session = await this.sessions.start(principal.id, actingAs(ctx, principal), mfaVerified, {
      providerId: person.settings.providerId,
      amr: person.amr,
    });
    return { session, userId: principal.id };
  }
}
