import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import type { PersonalValue } from '../src/events/personal-value.js';
import type { Projection } from './projection.js';

/** A personal value as the event carries it: sealed (v2) or plaintext (v1). */
export function personalValue(value: unknown): PersonalValue {
  return typeof value === 'object' && value !== null ? (value as PersonalValue) : String(value);
}

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

const byPrincipal = (e: RecordedEvent) => String(e.data.principalId ?? e.data.userId);
const patch =
  (change: (doc: PrincipalDoc, e: RecordedEvent) => Partial<PrincipalDoc>) =>
  (current: Doc | null, e: RecordedEvent): Doc | null =>
    current ? { ...current, ...change(current as PrincipalDoc, e) } : null;

export const principalsProjection: Projection = {
  name: 'principals',
  version: 2,
  collections: [
    {
      name: 'principals',
      indexes: [{ fields: ['emailDigest'] }, { fields: ['kind', 'createdAt'] }],
    },
  ],
  handlers: {
    UserSignedUp: [
      {
        collection: 'principals',
        documentId: byPrincipal,
        evolve: (_c, e): PrincipalDoc => ({
          id: String(e.data.userId),
          kind: 'user',
          name: personalValue(e.data.name),
          email: personalValue(e.data.email),
          emailDigest: typeof e.data.emailDigest === 'string' ? e.data.emailDigest : null,
          dataErasedAt: null,
          role: String(e.data.role),
          preset: null,
          status: 'active',
          createdAt: e.recordedAt,
          createdBy: null,
          invalidatedAt: null,
          tokensInvalidatedBefore: null,
        }),
      },
    ],
    AgentCreated: [
      {
        collection: 'principals',
        documentId: byPrincipal,
        evolve: (_c, e): PrincipalDoc => ({
          id: String(e.data.principalId),
          kind: 'agent',
          name: String(e.data.name),
          email: null,
          role: 'agent',
          preset: String(e.data.preset),
          status: 'active',
          createdAt: e.recordedAt,
          createdBy: String(e.data.createdBy),
          invalidatedAt: null,
          tokensInvalidatedBefore: null,
        }),
      },
    ],
    UserRoleChanged: [
      {
        collection: 'principals',
        documentId: byPrincipal,
        evolve: patch((_d, e) => ({ role: String(e.data.to) })),
      },
    ],
    UserDeactivated: [
      {
        collection: 'principals',
        documentId: byPrincipal,
        evolve: patch(() => ({ status: 'deactivated' })),
      },
    ],
    PrincipalInvalidated: [
      {
        collection: 'principals',
        documentId: byPrincipal,
        evolve: patch((d, e) => ({ invalidatedAt: d.invalidatedAt ?? e.recordedAt })),
      },
    ],
    SubjectDataErased: [
      {
        collection: 'principals',
        documentId: (e) => String(e.data.userId),
        evolve: patch((d, e) => ({ dataErasedAt: d.dataErasedAt ?? e.recordedAt })),
      },
    ],
    TokensInvalidatedBefore: [
      {
        collection: 'principals',
        documentId: byPrincipal,
        evolve: patch((_d, e) => ({ tokensInvalidatedBefore: String(e.data.before) })),
      },
    ],
  },
};
