import { assertMayGrantRole, rankRole, type Caller } from '../../access/authority.js';
import { badRequest, conflict, notFound } from '../../common/app-error.js';
import type { PersonalValue } from '../../events/personal-value.js';
import {
  InviteAccepted,
  InviteRevoked,
  MemberInvited,
  type Inviter,
  type InviteTerms,
} from '../../events/invite.events.js';
import type { Decider, EventLike } from '../../storage/decider.js';
import type { HumanRole } from '../team-members.decider.js';
import { assertInviterMayStillGrant, type InviterStanding } from './inviter-standing.js';

export interface InviteState {
  invite: {
    email: PersonalValue;
    emailDigest: string;
    role: HumanRole;
    tokenDigest: string;
    expiresAt: number;
    /** Null when it cannot be known (fails closed at acceptance). */
    invitedBy: Inviter | null;
  } | null;
  status: 'none' | 'pending' | 'accepted' | 'revoked';
}

export type InviteCommand =
  | ({ kind: 'invite'; actor: Caller } & InviteTerms)
  | { kind: 'revoke'; actor: Caller; inviteId: string }
  | {
      kind: 'accept';
      inviteId: string;
      tokenDigest: string;
      userId: string;
      now: number;
      /** The inviter as the team stream has them now; null when unknown. */
      inviter: InviterStanding | null;
    }
  | {
      /** Signing in through an identity provider with the invited email, verified there. */
      kind: 'acceptThroughSso';
      inviteId: string;
      emailDigest: string;
      userId: string;
      now: number;
      inviter: InviterStanding | null;
    };

/** One answer for every unusable link (unknown, wrong secret, used, revoked, expired). */
export function invalidInvite() {
  return badRequest('The invite link is invalid, used, revoked or expired', [
    { path: 'token', message: 'ask for a new invite' },
  ]);
}

/** Whether a link with this digest can still be accepted at `now`. */
export function inviteIsLive(state: InviteState, tokenDigest: string, now: number): boolean {
  return (
    state.status === 'pending' &&
    state.invite !== null &&
    state.invite.tokenDigest === tokenDigest &&
    state.invite.expiresAt > now
  );
}

/** Who sends an invite: a user (agents never hold `members:manage`), with the role they hold. */
function inviterOf(actor: Caller): Inviter | null {
  const role = rankRole(actor);
  return actor.kind === 'user' && role ? { userId: actor.id, role } : null;
}

/** Version 1 named no inviter: the recorded event's actor is who sent it. */
function recordedInviter(event: EventLike): Inviter | null {
  const actor = event.metadata?.actor;
  if (actor?.kind !== 'user' || !actor.principalId) return null;
  const role = rankRole({ id: actor.principalId, kind: 'user', role: actor.role ?? '' });
  return role ? { userId: actor.principalId, role } : null;
}

/**
 * Stream `invite-<id>`: created once, by someone who may grant its role (rank and narrowing);
 * accepted at most once, with the link's secret (or through an identity provider that verified
 * the invited email), before it expires, and only while its inviter
 * is active and could still grant its role; revoked by someone who could have made it. Accepted
 * and revoked are final.
 */
export const inviteDecider: Decider<InviteState, InviteCommand> = {
  initialState: () => ({ invite: null, status: 'none' }),

  evolve(state: InviteState, event: EventLike): InviteState {
    if (event.type === MemberInvited.type) {
      const d = MemberInvited.dataOf(event);
      return {
        invite: {
          email: d.email,
          emailDigest: d.emailDigest,
          role: d.role,
          tokenDigest: d.tokenDigest,
          expiresAt: Date.parse(d.expiresAt),
          invitedBy: d.invitedBy ?? recordedInviter(event),
        },
        status: 'pending',
      };
    }
    if (event.type === InviteAccepted.type) return { ...state, status: 'accepted' };
    if (event.type === InviteRevoked.type) return { ...state, status: 'revoked' };
    return state;
  },

  decide(command: InviteCommand, state: InviteState) {
    switch (command.kind) {
      case 'invite': {
        assertMayGrantRole(command.actor, command.role);
        if (state.status !== 'none') throw conflict('This invite already exists');
        return [
          MemberInvited({
            inviteId: command.inviteId,
            email: command.email,
            emailDigest: command.emailDigest,
            role: command.role,
            tokenDigest: command.tokenDigest,
            expiresAt: command.expiresAt,
            invitedBy: inviterOf(command.actor),
          }),
        ];
      }
      case 'revoke': {
        if (!state.invite) throw notFound('No such invite');
        // Only someone who could have made it: an admin cannot withdraw an owner's invite.
        assertMayGrantRole(command.actor, state.invite.role);
        if (state.status === 'revoked') return [];
        if (state.status === 'accepted') throw conflict('The invite was already accepted');
        return [InviteRevoked({ inviteId: command.inviteId })];
      }
      case 'accept': {
        if (!inviteIsLive(state, command.tokenDigest, command.now) || !state.invite) {
          throw invalidInvite();
        }
        assertInviterMayStillGrant(command.inviter, state.invite.role);
        return [InviteAccepted({ inviteId: command.inviteId, userId: command.userId })];
      }
      case 'acceptThroughSso': {
        const invite = state.invite;
        const live =
          state.status === 'pending' &&
          invite !== null &&
          invite.emailDigest === command.emailDigest &&
          invite.expiresAt > command.now;
        if (!live) throw invalidInvite();
        assertInviterMayStillGrant(command.inviter, invite.role);
        return [InviteAccepted({ inviteId: command.inviteId, userId: command.userId })];
      }
    }
  },
};
