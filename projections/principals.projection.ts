import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import type { Projection } from './projection.js';

/**
 * `principals`: one document per user or agent, what the guard reads for every request.
 * Users: `{id, kind: "user", name, email, role, status, createdAt, invalidatedAt,
 * tokensInvalidatedBefore}`. Agents: the same with `kind: "agent"`, `role: "agent"`, `preset`,
 * `createdBy` and no email. `status` is `active` or `deactivated`.
 */
export interface PrincipalDoc extends Doc {
  kind: 'user' | 'agent';
  name: string;
  email: string | null;
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
  version: 1,
  collections: [
    { name: 'principals', indexes: [{ fields: ['email'] }, { fields: ['kind', 'createdAt'] }] },
  ],
  handlers: {
    UserSignedUp: [
      {
        collection: 'principals',
        documentId: byPrincipal,
        evolve: (_c, e): PrincipalDoc => ({
          id: String(e.data.userId),
          kind: 'user',
          name: String(e.data.name),
          email: String(e.data.email),
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
    TokensInvalidatedBefore: [
      {
        collection: 'principals',
        documentId: byPrincipal,
        evolve: patch((_d, e) => ({ tokensInvalidatedBefore: String(e.data.before) })),
      },
    ],
  },
};
