import { defineEvent } from '../eventstore/define-event.js';

/** Stream `team-members`: membership facts whose invariants span users. */
export const UserSignedUp = defineEvent<{
  userId: string;
  email: string;
  name: string;
  role: 'owner' | 'admin' | 'operator' | 'viewer';
  /** argon2id hash; the password itself is never recorded. */
  passwordHash: string;
}>('UserSignedUp', 1);

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
}>('SessionStarted', 1);

export const SessionEnded = defineEvent<{
  userId: string;
  sessionDigest: string;
  reason: 'logout' | 'deactivated';
}>('SessionEnded', 1);

export const TEAM_MEMBERS_STREAM = 'team-members';
export const userStream = (userId: string) => `user-${userId}`;
