import {
  AgentCreated,
  PrincipalInvalidated,
  TokensInvalidatedBefore,
} from '../src/events/access.events.js';
import {
  UserDeactivated,
  UserRoleChanged,
  UserSignedUp,
  type RecordedUserSignUp,
} from '../src/events/identity.events.js';
import type { PersonalValue } from '../src/events/personal-value.js';
import { SubjectDataErased } from '../src/events/privacy.events.js';
import type { EventDataOf, EventDefinition } from '../src/eventstore/define-event.js';
import type { EventData, RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/**
 * `principals`: one document per user or agent, what the guard reads for every request.
 * Users: `{id, kind: "user", name, email, emailDigest, role, status, createdAt, invalidatedAt,
 * tokensInvalidatedBefore, dataErasedAt}`; `name` and `email` are sealed objects
 * `{pii: 1, subject, ct}` (AES-256-GCM under the user's key, unreadable once erased). Agents: the same with `kind: "agent"`, `role: "agent"`, `preset`,
 * `createdBy` and no email. `status` is `active` or `deactivated`.
 */
export interface PrincipalDoc extends Doc {
  kind: 'user' | 'agent';
  /** Users: sealed under the user's key (plaintext from v1 events); read with PersonalData. */
  name: PersonalValue;
  email: PersonalValue | null;
  /** Keyed digest of the email (v2 sign-ups), to find an account by email. */
  emailDigest?: string | null;
  /** When the user's personal data was erased (their key deleted). */
  dataErasedAt?: string | null;
  role: string;
  preset: string | null;
  status: 'active' | 'deactivated';
  createdAt: string;
  createdBy: string | null;
  invalidatedAt: string | null;
  tokensInvalidatedBefore: string | null;
}

const byUser = (e: RecordedEvent<{ userId: string }>) => e.data.userId;
const byPrincipal = (e: RecordedEvent<{ principalId: string }>) => e.data.principalId;

/** A change to an existing principal's document. */
function patch<D extends EventData>(
  definition: EventDefinition<D>,
  documentId: (e: RecordedEvent<D>) => string,
  change: (doc: PrincipalDoc, e: RecordedEvent<D>) => Partial<PrincipalDoc>,
) {
  return on<D, PrincipalDoc>(definition, {
    collection: 'principals',
    documentId,
    evolve: (current, e) => (current ? { ...current, ...change(current, e) } : null),
  });
}

export const principalsProjection: Projection = {
  name: 'principals',
  version: 2,
  collections: [
    {
      name: 'principals',
      indexes: [{ fields: ['emailDigest'] }, { fields: ['kind', 'createdAt'] }],
    },
  ],
  handlers: handlersOf(
    on<EventDataOf<typeof UserSignedUp>, PrincipalDoc>(UserSignedUp, {
      collection: 'principals',
      documentId: byUser,
      evolve: (_c, { data, recordedAt }: RecordedEvent<RecordedUserSignUp>) => ({
        id: data.userId,
        kind: 'user',
        name: data.name,
        email: data.email,
        emailDigest: data.emailDigest ?? null,
        dataErasedAt: null,
        role: data.role,
        preset: null,
        status: 'active',
        createdAt: recordedAt,
        createdBy: null,
        invalidatedAt: null,
        tokensInvalidatedBefore: null,
      }),
    }),
    on<EventDataOf<typeof AgentCreated>, PrincipalDoc>(AgentCreated, {
      collection: 'principals',
      documentId: byPrincipal,
      evolve: (_c, { data, recordedAt }) => ({
        id: data.principalId,
        kind: 'agent',
        name: data.name,
        email: null,
        role: 'agent',
        preset: data.preset,
        status: 'active',
        createdAt: recordedAt,
        createdBy: data.createdBy,
        invalidatedAt: null,
        tokensInvalidatedBefore: null,
      }),
    }),
    patch(UserRoleChanged, byUser, (_d, e) => ({ role: e.data.to })),
    patch(UserDeactivated, byUser, () => ({ status: 'deactivated' })),
    patch(PrincipalInvalidated, byPrincipal, (d, e) => ({
      invalidatedAt: d.invalidatedAt ?? e.recordedAt,
    })),
    patch(SubjectDataErased, byUser, (d, e) => ({
      dataErasedAt: d.dataErasedAt ?? e.recordedAt,
    })),
    patch(TokensInvalidatedBefore, byPrincipal, (_d, e) => ({
      tokensInvalidatedBefore: e.data.before,
    })),
  ),
};
