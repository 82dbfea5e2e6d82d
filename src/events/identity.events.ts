import type { PersonalValue } from './personal-value.js';
import { defineEvent } from '../eventstore/define-event.js';

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
  role: 'owner' | 'admin' | 'operator' | 'viewer';
  /** argon2id hash; the password itself is never recorded. */
  passwordHash: string;
}>('UserSignedUp', 2);

export const UserRoleChanged = defineEvent<{ userId: string; from: string; to: string }>(
  'UserRoleChanged',
  1,
);

export const UserDeactivated = defineEvent<{ userId: string }>('UserDeactivated', 1);

/** Stream `user-<id>`: sessions. Only a SHA-256 digest of the session cookie is recorded. */
export const SessionStarted = defineEvent<{
  userId: string;
  sessionDigest: string;
  expiresAt: string;
  /** The login passed the second factor. Sessions from before enrolment never count as verified. */
  mfaVerified: boolean;
}>('SessionStarted', 1);

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
