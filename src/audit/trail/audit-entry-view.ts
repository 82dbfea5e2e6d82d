import type { AuditEntryDoc } from '../../../projections/audit-trail.projection.js';

/** One line of the audit trail as `auditTrail`, the export and `slipway audit list` show it. */
export interface AuditEntryView {
  position: number;
  eventId: string;
  time: string;
  action: string;
  stream: string;
  resource: string;
  outcome: string;
  code: string | null;
  count: number;
  inputFields: string[];
  actor: { id: string | null; kind: string; role: string | null; label: string };
  authMethod: string;
  /** `mcp` for calls made through the MCP server, else `http`. */
  channel: string;
  token: { id: string; name: string | null } | null;
  clientAddress: string | null;
  requestId: string | null;
}

export interface ResolvedNames {
  label: string;
  tokenName: string | null;
  clientAddress: string | null;
}

/**
 * The label an actor has whatever the read models say (`system`, `anonymous`), or null for a
 * principal, whose label comes from the principals read model and personal data.
 */
export function fixedLabel(principalId: string | null, kind: string): string | null {
  if (kind === 'system') return 'system';
  if (!principalId) return 'anonymous';
  return null;
}

export function auditEntryView(doc: AuditEntryDoc, names: ResolvedNames): AuditEntryView {
  return {
    position: doc.position,
    eventId: doc.eventId,
    time: doc.at,
    action: doc.type,
    stream: doc.stream,
    resource: doc.resource,
    outcome: doc.outcome,
    code: doc.code,
    count: doc.count,
    inputFields: doc.inputFields,
    actor: { id: doc.actorId, kind: doc.actorKind, role: doc.actorRole, label: names.label },
    authMethod: doc.authMethod,
    channel: doc.channel ?? 'http',
    token: doc.tokenId ? { id: doc.tokenId, name: names.tokenName } : null,
    clientAddress: names.clientAddress,
    requestId: doc.requestId,
  };
}
