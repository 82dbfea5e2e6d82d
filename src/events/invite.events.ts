import type { PersonalValue } from './personal-value.js';
import { defineEvent } from '../eventstore/define-event.js';
import type { HUMANS } from '../kernel/roles.js';

type HumanRole = (typeof HUMANS)[number];

/**
 * Stream `invite-<inviteId>`: one invitation to join the team, bound to an email and a role.
 * The link's secret is recorded only as a keyed digest; the email is sealed under the invite's
 * own subject key (`invite-<inviteId>`).
 */
export const MemberInvited = defineEvent<{
  inviteId: string;
  email: PersonalValue;
  emailDigest: string;
  role: HumanRole;
  tokenDigest: string;
  expiresAt: string;
}>('MemberInvited', 1);

export const InviteRevoked = defineEvent<{ inviteId: string }>('InviteRevoked', 1);

/** The invite was used: `userId` is the account it created (its `UserSignedUp` follows). */
export const InviteAccepted = defineEvent<{ inviteId: string; userId: string }>(
  'InviteAccepted',
  1,
);

export const inviteStream = (inviteId: string) => `invite-${inviteId}`;
export const inviteSubject = (inviteId: string) => `invite-${inviteId}`;
