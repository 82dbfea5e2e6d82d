import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { InviteDoc } from '../../../projections/invites.projection.js';
import type { PrincipalDoc } from '../../../projections/principals.projection.js';
import { principalOf } from '../../access/principal-of.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { inviteStream } from '../../events/invite.events.js';
import type { MappedRole } from '../../events/sso.events.js';
import { ssoSubjectStream } from '../../events/sso.events.js';
import { actingAs, type Principal, type RequestContext } from '../../kernel/request-context.js';
import { PersonalData } from '../../privacy/personal-data.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { SignUpHandler } from '../commands/sign-up.handler.js';
import { credentialByEmail } from '../credential-lookup.js';
import { inviteDecider } from '../invites/invite.decider.js';
import { PasswordHasher } from '../password-hasher.js';
import { TeamRoster } from '../team-roster.js';
import type { HumanRole } from '../team-members.decider.js';
import { mappedRole, mappingDecidesRoles } from './role-mapping.js';
import type { VerifiedPerson } from './sso-protocol.js';
import { SsoRefusal } from './sso-refusal.js';
import { ssoSubjectDecider } from './sso-subject.decider.js';

/** Who a verified person is here, with the keyed digests their refusal may be recorded under. */
interface Known {
  subjectDigest: string;
  emailDigest: string | null;
  refuse: (reason: ConstructorParameters<typeof SsoRefusal>[0]) => SsoRefusal;
}

/**
 * From a person a provider vouched for to a member: the subject already linked; else a member
 * with the verified email (linked now); else a live invite for it; else an allowed domain.
 * Anyone else is refused. The claim mapping, when it decides roles, gives the role at every
 * sign-in (owners excepted), recorded as a role change when it differs.
 */
@Injectable()
export class SsoMembers {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly signUp: SignUpHandler,
    private readonly roster: TeamRoster,
    private readonly hasher: PasswordHasher,
    private readonly personal: PersonalData,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The digests a refusal is recorded under, before anything is known of the person. */
  digests(person: VerifiedPerson): { subjectDigest: string; emailDigest: string | null } {
    return {
      subjectDigest: this.personal.lookupDigest(
        'sso-subject',
        `${person.settings.providerId}\n${person.subject}`,
      ),
      emailDigest: person.email ? this.personal.lookupDigest('email', person.email) : null,
    };
  }

  async signIn(person: VerifiedPerson, ctx: RequestContext): Promise<Principal> {
    const { subjectDigest, emailDigest } = this.digests(person);
    const known: Known = {
      subjectDigest,
      emailDigest,
      refuse: (reason) =>
        new SsoRefusal(reason, person.settings.providerId, subjectDigest, emailDigest),
    };
    const mapping = person.settings.roleMapping;
    const mapped = mappingDecidesRoles(mapping) ? mappedRole(mapping, person.claims) : undefined;
    const link = await this.runner.load(ssoSubjectStream(subjectDigest), ssoSubjectDecider);
    const userId = link.userId ?? (await this.recognise(person, known, mapped, ctx));
    const doc = await this.reads.collection<PrincipalDoc>('principals').get(userId);
    if (!doc || doc.kind !== 'user' || doc.status !== 'active') throw known.refuse('deactivated');
    const principal = await principalOf(doc, this.personal);
    // Owners are made by people: a provider's groups neither demote nor refuse one.
    if (principal.role === 'owner' || mapped === undefined) return principal;
    if (mapped === null) throw known.refuse('no-role');
    if (principal.role === mapped) return principal;
    const change = await this.roster.change(
      { kind: 'mapRole', providerId: person.settings.providerId, userId, role: mapped },
      actingAs(ctx, principal),
    );
    return change.events.length > 0 ? { ...principal, role: mapped } : principal;
  }

  /** A first sign-in through this provider: an account, an invite or a domain, then linked. */
  private async recognise(
    person: VerifiedPerson,
    known: Known,
    mapped: MappedRole | null | undefined,
    ctx: RequestContext,
  ): Promise<string> {
    const { email } = person;
    if (!email || !person.emailVerified || !known.emailDigest) {
      throw known.refuse('email-unverified');
    }
    const link = async (
      userId: string,
      through: 'invite' | 'domain' | 'email',
      as: RequestContext,
    ) => {
      await this.runner.run(
        ssoSubjectStream(known.subjectDigest),
        ssoSubjectDecider,
        {
          userId,
          providerId: person.settings.providerId,
          subjectDigest: known.subjectDigest,
          through,
        },
        as,
      );
      return userId;
    };
    const existing = await credentialByEmail(this.reads, this.personal, email);
    // Who may come in is told before whether the mapping gives them a role.
    const noRole = () => known.refuse('no-role');
    if (existing) {
      const doc = await this.reads.collection<PrincipalDoc>('principals').get(existing.id);
      if (!doc || doc.status !== 'active') throw known.refuse('deactivated');
      if (mapped === null && doc.role !== 'owner') throw noRole();
      return link(existing.id, 'email', actingAs(ctx, await principalOf(doc, this.personal)));
    }
    const invite = await this.liveInvite(known.emailDigest);
    const domain = email.slice(email.lastIndexOf('@') + 1);
    if (!invite && !person.settings.allowedDomains.includes(domain)) {
      throw known.refuse(
        person.settings.allowedDomains.length > 0 ? 'domain-not-allowed' : 'not-invited',
      );
    }
    if (mapped === null) throw noRole();
    const role: HumanRole = mapped ?? (invite?.role as HumanRole | undefined) ?? 'viewer';
    const userId = await this.claimInvite(invite, known.emailDigest, ctx);
    const name = person.name?.trim() || email.slice(0, email.indexOf('@'));
    // A password nobody knows: this member signs in through the provider (or resets one).
    const unknowable = await this.hasher.hash(randomBytes(32).toString('base64url'));
    const { actor } = await this.signUp.join({ email, name }, unknowable, ctx, { role, userId });
    return link(userId, invite ? 'invite' : 'domain', actor);
  }

  /** The newest pending, unexpired invite for this email, if any. */
  private async liveInvite(emailDigest: string): Promise<InviteDoc | null> {
    const { items } = await this.reads
      .collection<InviteDoc>('invites')
      .find({ emailDigest, status: 'pending' }, { sort: { createdAt: -1 }, limit: 20 });
    const now = this.clock.now().getTime();
    return items.find((i) => Date.parse(i.expiresAt) > now) ?? null;
  }

  /** Claims the invite on its stream (used at most once); the new member's id either way. */
  private async claimInvite(
    invite: InviteDoc | null,
    emailDigest: string,
    ctx: RequestContext,
  ): Promise<string> {
    const userId = crypto.randomUUID();
    if (!invite) return userId;
    const state = await this.runner.load(inviteStream(invite.id), inviteDecider);
    const by = state.invite?.invitedBy;
    const inviter = by ? await this.roster.standing(by.userId, by.role) : null;
    await this.runner.run(
      inviteStream(invite.id),
      inviteDecider,
      {
        kind: 'acceptThroughSso',
        inviteId: invite.id,
        emailDigest,
        userId,
        now: this.clock.now().getTime(),
        inviter,
      },
      ctx,
    );
    return userId;
  }
}
