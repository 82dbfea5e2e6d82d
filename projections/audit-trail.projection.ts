import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, onEvery, type Projection } from './projection.js';

export type AuditOutcome = 'succeeded' | 'denied' | 'rejected';

/**
 * `audit_trail`: one document per event, every stream, in global order. Refusals
 * (`AccessDenied`, `CommandRejected`) and no-effect calls (`CommandHadNoEffect`) carry the
 * procedure or route as `resource`, a `count`, and for refusals the error `code`; every other event is a success whose resource is its stream.
 * `{id: "p<position>", position, eventId, type, stream, revision, at, outcome, resource, code,
 * count, inputFields, actorId, actorKind, actorRole, authMethod, tokenId, clientAddress,
 * requestId, correlationId, channel}`; `channel` is `mcp` for calls made through the MCP server,
 * else `http` (version 2 added it).
 */
export interface AuditEntryDoc extends Doc {
  position: number;
  eventId: string;
  type: string;
  stream: string;
  revision: number;
  at: string;
  outcome: AuditOutcome;
  resource: string;
  code: string | null;
  count: number;
  inputFields: string[];
  actorId: string | null;
  actorKind: string;
  actorRole: string | null;
  authMethod: string;
  tokenId: string | null;
  clientAddress: unknown;
  requestId: string | null;
  correlationId: string | null;
  channel: string;
}

export function auditEntryOf(e: RecordedEvent): AuditEntryDoc {
  const refusal = e.type === 'AccessDenied' || e.type === 'CommandRejected';
  const call = refusal || e.type === 'CommandHadNoEffect';
  const m = e.metadata;
  return {
    id: `p${e.position}`,
    position: Number(e.position),
    eventId: e.id,
    type: e.type,
    stream: e.stream,
    revision: Number(e.revision),
    at: e.recordedAt,
    outcome: !refusal ? 'succeeded' : e.type === 'AccessDenied' ? 'denied' : 'rejected',
    resource: call ? `${String(e.data.surface)}:${String(e.data.target)}` : e.stream,
    code: refusal ? String(e.data.code) : null,
    count: call ? Number(e.data.count) : 1,
    inputFields: call && Array.isArray(e.data.inputFields) ? e.data.inputFields.map(String) : [],
    actorId: m.actor.principalId,
    actorKind: m.actor.kind,
    actorRole: m.actor.role,
    authMethod: m.authMethod,
    tokenId: m.tokenId,
    clientAddress: m.clientAddress,
    requestId: m.requestId,
    correlationId: m.correlationId,
    channel: m.channel ?? 'http',
  };
}

export const auditTrailProjection: Projection = {
  name: 'audit_trail',
  version: 2,
  collections: [
    {
      name: 'audit_trail',
      indexes: [
        { fields: ['position'] },
        { fields: ['actorId', 'position'] },
        { fields: ['type', 'position'] },
        { fields: ['stream', 'position'] },
        { fields: ['resource', 'position'] },
        { fields: ['outcome', 'position'] },
        { fields: ['at'] },
        { fields: ['requestId'] },
      ],
    },
  ],
  handlers: handlersOf(
    onEvery({
      collection: 'audit_trail',
      documentId: (e) => `p${e.position}`,
      evolve: (_c, e) => auditEntryOf(e),
      perEvent: true,
    }),
  ),
};
