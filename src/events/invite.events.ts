import type { PersonalValue } from './personal-value.js';
import { defineEvent } from '../eventstore/define-event.js';
import type { HUMANS } from '../kernel/roles.js';

type HumanRole = (typeof HUMANS)[number];

/** Who sent an invite, and the role they held when they sent it. */
export type Inviter = {
  userId: string;
  role: HumanRole;
};

/** What an invite is: all of `MemberInvited` version 1 (version 2 adds `invitedBy`). */
export type InviteTerms = {
  inviteId: string;
  email: PersonalValue;
  emailDigest: string;
  role: HumanRole;
  tokenDigest: string;
  expiresAt: string;
};

/**
 * Stream `invite-<inviteId>`: one invitation to join the team, bound to an email and a role.
 * The link's secret is recorded only as a keyed digest; the email is sealed under the invite's
 * own subject key (`invite-<inviteId>`). Version 2 names the inviter (`invitedBy`), whose
 * standing is judged again when the invite is accepted; version 1 reads as `invitedBy: null`
 * (its metadata's actor says who sent it).
 */
export const MemberInvited = defineEvent<InviteTerms & { invitedBy: Inviter | null }>(
  'MemberInvited',
  2,
  (data) => ({
    ...(data as unknown as InviteTerms),
    invitedBy: null,
  }),
);

export const InviteRevoked = defineEvent<{ inviteId: string }>('InviteRevoked', 1);

/** The invite was used: `userId` is the account it created (its `UserSignedUp` follows). */
export const InviteAccepted = defineEvent<{ inviteId: string; userId: string }>(
  'InviteAccepted',
  1,
);

export const inviteStream = (inviteId: string) => `invite-${inviteId}`;
export const inviteSubject = (inviteId: string) => `invite-${inviteId}`;
