/** Who or what caused an event. `system` is the service itself (runner, projections, start-up). */
export type ActorKind = 'user' | 'agent' | 'system' | 'anonymous';

/** `hook`: an inbound deploy webhook's signature (the actor is the hook; see deployments/hooks). */
export type AuthMethod = 'session' | 'token' | 'hook' | 'system' | 'none';

/**
 * The client-facing channel a call came through: `http` for the procedure-call interface and the
 * REST routes, `mcp` for the MCP server (Streamable HTTP at /mcp, and `slipway mcp` over stdio,
 * which forwards there). Recorded on events only when it is not `http`, so events written before
 * channels existed read as `http` and keep their hashes.
 */
export type CallChannel = 'http' | 'mcp';

export interface EventActor {
  principalId: string | null;
  kind: ActorKind;
  role: string | null;
}

/**
 * Metadata carried by every event. It is the audit trail: who, with which credential,
 * from where, inside which request, caused by what.
 */
export interface EventMetadata {
  actor: EventActor;
  authMethod: AuthMethod;
  tokenId: string | null;
  requestId: string | null;
  correlationId: string | null;
  causationId: string | null;
  /** Personal data: sealed under a subject key by the writer (see audit/privacy). */
  clientAddress: string | SealedAddress | null;
  /** Absent: `http`. */
  channel?: CallChannel;
}

/** The sealed form of a client address (crypto-shredding); see `SealedPersonal`. */
export interface SealedAddress {
  pii: 1;
  subject: string;
  ct: string;
}

export const SYSTEM_ACTOR: EventActor = { principalId: null, kind: 'system', role: null };

export function systemMetadata(overrides: Partial<EventMetadata> = {}): EventMetadata {
  return {
    actor: SYSTEM_ACTOR,
    authMethod: 'system',
    tokenId: null,
    requestId: null,
    correlationId: null,
    causationId: null,
    clientAddress: null,
    ...overrides,
  };
}
