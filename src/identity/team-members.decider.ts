import type { PersonalValue } from '../events/personal-value.js';
import { assertMayActOn, assertMayGrantRole, type Caller } from '../access/authority.js';
import { AppError, conflict, notFound } from '../common/app-error.js';
import type { Decider, EventLike } from '../storage/decider.js';
import { EMAIL_TAKEN } from './member-email.decider.js';
import {
  UserDeactivated,
  UserRoleChanged,
  UserSignedUp,
  recordedSignUp,
} from '../events/identity.events.js';

export type HumanRole = 'owner' | 'admin' | 'operator' | 'viewer';

interface Member {
  /** The keyed email digest (v2 events) or the plaintext email (v1 events). */
  emailKey: string;
  role: HumanRole;
  active: boolean;
}

export interface TeamState {
  members: Map<string, Member>;
}

export type TeamCommand =
  | {
      kind: 'signUp';
      userId: string;
      /** Plaintext, compared in memory only (with members from v1 events); never recorded. */
      email: string;
      emailDigest: string;
      sealedEmail: PersonalValue;
      sealedName: PersonalValue;
      passwordHash: string;
      /** SLIPWAY_OPEN_SIGNUP: whether anyone may join after the owner without an invite. */
      openSignup: boolean;
      /** The role of the accepted invite this sign-up comes with, if any. */
      invitedAs?: HumanRole;
    }
  | {
      kind: 'changeRole';
      actor: Caller;
      userId: string;
      role: HumanRole;
      joined?: boolean;
      joinedAs?: HumanRole;
    }
  | { kind: 'deactivate'; actor: Caller; userId: string; joined?: boolean; joinedAs?: HumanRole }
  | {
      /** A sign-in through this provider: its claim mapping gives the member this role. */
      kind: 'mapRole';
      providerId: string;
      userId: string;
      role: Exclude<HumanRole, 'owner'>;
      joined?: boolean;
      joinedAs?: HumanRole;
    };

/** Sign-up after the owner, with open sign-up off and no invite. */
export function signUpByInviteOnly(): AppError {
  return new AppError(
    'FORBIDDEN',
    'Sign-up is by invitation: ask an owner or admin for an invite',
    {
      requiredScopes: [],
      grantedScopes: [],
      rule: 'invite-only',
    },
  );
}

/**
 * A member who signed up on their own email stream (everyone after the founder) and has no
 * role change or deactivation yet: the team decider gave them their role at sign-up (viewer, or
 * the role of their invite), which the handler reads from the read model (`joinedAs`).
 */
const JOINED: Member = { emailKey: '', role: 'viewer', active: true };

const activeOwners = (state: TeamState) =>
  [...state.members.values()].filter((m) => m.active && m.role === 'owner').length;

/** `joined`: the handler found the user signed up outside this stream, as `joinedAs`. */
function member(
  state: TeamState,
  userId: string,
  joined = false,
  joinedAs: HumanRole = 'viewer',
): Member {
  const found = state.members.get(userId) ?? (joined ? { ...JOINED, role: joinedAs } : undefined);
  if (!found) throw notFound('No such user');
  return found;
}

const user = (id: string, m: Member) => ({ id, kind: 'user' as const, role: m.role });

/**
 * Stream `team-members`. The first sign-up (the founder) is recorded here and becomes owner;
 * later ones are decided here (viewer, email not taken by a member recorded here) but
 * recorded on their own email stream (member-email.decider.ts), so signing up does not
 * contend on this stream. Role changes and deactivations stay here, where the owners are
 * counted. Emails are unique;
 * nobody changes or deactivates a member ranked above them, nor grants a role above their own or
 * wider than their effective scopes; the last active owner cannot be demoted or deactivated.
 * A provider's claim mapping changes the roles of members below owner at their sign-in.
 */
export const teamMembersDecider: Decider<TeamState, TeamCommand> = {
  initialState: () => ({ members: new Map() }),

  evolve(state: TeamState, event: EventLike): TeamState {
    const members = new Map(state.members);
    if (event.type === UserSignedUp.type) {
      // Version 1 had no digest: its plaintext email is the key it was taken under.
      const d = recordedSignUp(event);
      const emailKey = d.emailDigest !== undefined ? d.emailDigest : d.email;
      members.set(d.userId, { emailKey, role: d.role, active: true });
    } else if (event.type === UserRoleChanged.type) {
      const d = UserRoleChanged.dataOf(event);
      const m = members.get(d.userId) ?? JOINED;
      members.set(d.userId, { ...m, role: d.to });
    } else if (event.type === UserDeactivated.type) {
      const d = UserDeactivated.dataOf(event);
      const m = members.get(d.userId) ?? JOINED;
      members.set(d.userId, { ...m, active: false });
    }
    return { members };
  },

  decide(command: TeamCommand, state: TeamState) {
    switch (command.kind) {
      case 'signUp': {
        const taken = [...state.members.values()].some(
          (m) => m.emailKey === command.emailDigest || m.emailKey === command.email,
        );
        const founder = state.members.size === 0;
        // Invite-only first: whether an address is a member's is told only to those who may join.
        if (!founder && !command.invitedAs && !command.openSignup) throw signUpByInviteOnly();
        if (taken) throw conflict(EMAIL_TAKEN);
        const role = founder ? 'owner' : (command.invitedAs ?? 'viewer');
        return [
          UserSignedUp({
            userId: command.userId,
            email: command.sealedEmail,
            emailDigest: command.emailDigest,
            name: command.sealedName,
            role,
            passwordHash: command.passwordHash,
          }),
        ];
      }
      case 'changeRole': {
        // What is asked for is checked first: it exceeds the caller whoever the target is.
        assertMayGrantRole(command.actor, command.role);
        const target = member(state, command.userId, command.joined, command.joinedAs);
        if (!target.active) throw conflict('The user is deactivated');
        assertMayActOn(command.actor, user(command.userId, target), 'change the role of');
        if (target.role === command.role) return [];
        if (target.role === 'owner' && activeOwners(state) === 1) {
          throw conflict('The last owner cannot be demoted; make someone else owner first');
        }
        return [UserRoleChanged({ userId: command.userId, from: target.role, to: command.role })];
      }
      case 'mapRole': {
        // Owners are made and unmade by people: a provider's groups never demote one.
        const target = member(state, command.userId, command.joined, command.joinedAs);
        if (!target.active || target.role === 'owner' || target.role === command.role) return [];
        return [
          UserRoleChanged({
            userId: command.userId,
            from: target.role,
            to: command.role,
            providerId: command.providerId,
          }),
        ];
      }
      case 'deactivate': {
        const target = member(state, command.userId, command.joined, command.joinedAs);
        if (!target.active) return [];
        assertMayActOn(command.actor, user(command.userId, target), 'deactivate');
        if (target.role === 'owner' && activeOwners(state) === 1) {
          throw conflict('The last owner cannot be deactivated');
        }
        return [UserDeactivated({ userId: command.userId })];
      }
    }
  },
};
