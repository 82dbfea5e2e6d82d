import type { PersonalValue } from './personal-value.js';
import { defineEvent, type EventDataOf, type Versioned } from '../eventstore/define-event.js';
import type { HUMANS, Role } from '../kernel/roles.js';

type HumanRole = (typeof HUMANS)[number];

/**
 * Stream `team-members`: membership facts whose invariants span users. Version 2 seals email
 * and name under the user's own key (crypto-shredding) and adds a keyed `emailDigest` to find
 * the account at sign-in; version 1 events (plaintext email and name) are still read.
 */
export const UserSignedUp = defineEvent<{
  userId: string;
  email: PersonalValue;
  emailDigest: string;
  name: PersonalValue;
  role: HumanRole;
  /** argon2id hash; the password itself is never recorded. */
  passwordHash: string;
}>('UserSignedUp', 2);

/** `UserSignedUp` version 1, still read: email and name in plaintext, no email digest. */
export type UserSignedUpV1 = Omit<
  EventDataOf<typeof UserSignedUp>,
  'email' | 'emailDigest' | 'name'
> & {
  email: string;
  name: string;
  emailDigest?: undefined;
};

/** `UserSignedUp` as recorded: version 2 (sealed email and name, email digest) or version 1. */
export type RecordedUserSignUp = EventDataOf<typeof UserSignedUp> | UserSignedUpV1;

/** The data of a recorded `UserSignedUp`, of either version. */
export function recordedSignUp(event: Versioned): RecordedUserSignUp {
  return UserSignedUp.dataOf(event);
}

export const UserRoleChanged = defineEvent<{
  userId: string;
  from: Role;
  to: HumanRole;
  /** Set when a sign-in through this identity provider changed the role (its claim mapping). */
  providerId?: string;
}>('UserRoleChanged', 1);

export const UserDeactivated = defineEvent<{ userId: string }>('UserDeactivated', 1);

/** Stream `user-<id>`: sessions. Only a SHA-256 digest of the session cookie is recorded. */
export const SessionStarted = defineEvent<{
  userId: string;
  sessionDigest: string;
  expiresAt: string;
  /** The login passed the second factor. Sessions from before enrolment never count as verified. */
  mfaVerified: boolean;
  /** Absent: password (and TOTP). Present: single sign-on through this provider, with its `amr`. */
  sso?: SsoSignIn;
}>('SessionStarted', 1);

/** How a session's sign-in went through an identity provider. */
export type SsoSignIn = {
  providerId: string;
  /** The ID token's authentication methods (RFC 8176), as the provider stated them. */
  amr: string[];
};

export const SessionEnded = defineEvent<{
  userId: string;
  sessionDigest: string;
  reason: 'logout' | 'deactivated' | 'password-reset';
}>('SessionEnded', 1);

export const TEAM_MEMBERS_STREAM = 'team-members';
/** Stream `member-email-<digest>`: the sign-up of everyone after the founder, by the keyed email digest. */
export const memberEmailStream = (emailDigest: string) => `member-email-${emailDigest}`;
export const userStream = (userId: string) => `user-${userId}`;

/** Stream `user-<id>`: the argon2id hash of the new password. */
export const PasswordChanged = defineEvent<{
  userId: string;
  passwordHash: string;
  reason: 'reset';
}>('PasswordChanged', 1);

/** Stream `password-reset-<digest>`: a single-use link, recorded only as a keyed digest. */
export const PasswordResetRequested = defineEvent<{
  userId: string;
  tokenDigest: string;
  expiresAt: string;
}>('PasswordResetRequested', 1);
export const PasswordResetCompleted = defineEvent<{ userId: string; tokenDigest: string }>(
  'PasswordResetCompleted',
  1,
);
