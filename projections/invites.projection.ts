import { InviteAccepted, InviteRevoked, MemberInvited } from '../src/events/invite.events.js';
import type { PersonalValue } from '../src/events/personal-value.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/**
 * `invites`: `{id: inviteId, email (sealed under the invite's key), emailDigest, role, status: pending |
 * accepted | revoked, invitedBy, createdAt, expiresAt, acceptedUserId, acceptedAt, revokedAt,
 * revokedBy}`. Never the link's secret nor its digest. A pending invite past `expiresAt` is
 * expired; readers compute that from the clock.
 */
export interface InviteDoc extends Doc {
  email: PersonalValue;
  /** The keyed digest of the email, to find the invite at a sign-in through a provider. */
  emailDigest: string;
  role: string;
  status: 'pending' | 'accepted' | 'revoked';
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
  acceptedUserId: string | null;
  acceptedAt: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
}

const byInvite = (e: RecordedEvent<{ inviteId: string }>) => e.data.inviteId;

export const invitesProjection: Projection = {
  name: 'invites',
  version: 2,
  collections: [
    {
      name: 'invites',
      indexes: [{ fields: ['createdAt'] }, { fields: ['emailDigest', 'status'] }],
    },
  ],
  handlers: handlersOf(
    on<EventDataOf<typeof MemberInvited>, InviteDoc>(MemberInvited, {
      collection: 'invites',
      documentId: byInvite,
      evolve: (_c, { data, metadata, recordedAt }) => ({
        id: data.inviteId,
        email: data.email,
        emailDigest: data.emailDigest,
        role: data.role,
        status: 'pending',
        invitedBy: metadata.actor.principalId,
        createdAt: recordedAt,
        expiresAt: data.expiresAt,
        acceptedUserId: null,
        acceptedAt: null,
        revokedAt: null,
        revokedBy: null,
      }),
    }),
    on<EventDataOf<typeof InviteAccepted>, InviteDoc>(InviteAccepted, {
      collection: 'invites',
      documentId: byInvite,
      evolve: (c, { data, recordedAt }) =>
        c
          ? { ...c, status: 'accepted', acceptedUserId: data.userId, acceptedAt: recordedAt }
          : null,
    }),
    on<EventDataOf<typeof InviteRevoked>, InviteDoc>(InviteRevoked, {
      collection: 'invites',
      documentId: byInvite,
      evolve: (c, { metadata, recordedAt }) =>
        c
          ? {
              ...c,
              status: 'revoked',
              revokedAt: recordedAt,
              revokedBy: metadata.actor.principalId,
            }
          : null,
    }),
  ),
};
