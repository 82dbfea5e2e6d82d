import { defineEvent } from '../eventstore/define-event.js';

/**
 * Stream `privacy-<userId>`: the subject's key was deleted; their sealed values read `[erased]`.
 * `invites`: the keys of the invites accepted by the user or addressed to their email, erased
 * with theirs (absent from events recorded before invites were reached).
 */
export const SubjectDataErased = defineEvent<{
  userId: string;
  subject: string;
  invites?: string[];
}>('SubjectDataErased', 1);

export const privacyStream = (userId: string) => `privacy-${userId}`;

/** The key personal values about a user are sealed under. */
export const userSubject = (userId: string) => `user-${userId}`;
