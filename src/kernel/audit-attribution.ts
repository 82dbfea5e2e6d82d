import type { Request } from 'express';
import type { AuthMethod, ActorKind, CallChannel } from '../eventstore/event-metadata.js';
import type { Lane } from './lanes.js';
import { toWellFormed } from './well-formed-text.js';

/** What a request tried to reach: a procedure by name, or a route by method and pattern. */
export interface AuditTarget {
  surface: 'procedure' | 'route';
  name: string;
  lane: Lane;
  /** The channel the call came through; absent: `http`. */
  channel?: CallChannel;
}

/** Who was calling, as far as the guard got before refusing. Never a credential's value. */
export interface CallerAttribution {
  principalId: string | null;
  kind: ActorKind;
  role: string | null;
  authMethod: AuthMethod;
  tokenId: string | null;
}

interface AuditMarks {
  target?: AuditTarget;
  caller?: CallerAttribution;
  /** Computed only when a record is written: most calls never need it. */
  inputFields?: () => string[];
  /** The call's failure has been judged for the trail (recorded or not): never twice. */
  failureSettled?: boolean;
}

declare module 'express-serve-static-core' {
  interface Request {
    slipwayAudit?: AuditMarks;
  }
}

function marks(req: Request): AuditMarks {
  req.slipwayAudit ??= {};
  return req.slipwayAudit;
}

/** Declares that a refusal of this request belongs in the audit trail, and under what name. */
export function markAuditTarget(req: Request, target: AuditTarget): void {
  marks(req).target = target;
}

export function attributeCaller(req: Request, caller: CallerAttribution): void {
  marks(req).caller = caller;
}

export function recordInputFields(req: Request, fields: () => string[]): void {
  marks(req).inputFields = fields;
}

/** True the first time only: whoever settles a call's failure first records it. */
export function settleFailure(req: Request): boolean {
  const own = marks(req);
  if (own.failureSettled) return false;
  own.failureSettled = true;
  return true;
}

export function auditMarks(req: Request): AuditMarks {
  return req.slipwayAudit ?? {};
}

const MAX_FIELDS = 32;
const MAX_DEPTH = 3;

/**
 * The field names of an input, dotted, never its values: enough to tell what was attempted
 * without copying a password or a key into the record. Bounded in count and depth.
 */
export function inputFieldNames(input: unknown): string[] {
  const names: string[] = [];
  const walk = (value: unknown, prefix: string, depth: number) => {
    if (names.length >= MAX_FIELDS || depth > MAX_DEPTH) return;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    for (const key of Object.keys(value)) {
      if (names.length >= MAX_FIELDS) return;
      // Cut and sent text may hold a lone surrogate: the record holds only well-formed text.
      const name = `${prefix}${toWellFormed(key.slice(0, 64))}`;
      names.push(name);
      walk((value as Record<string, unknown>)[key], `${name}.`, depth + 1);
    }
  };
  walk(input, '', 1);
  return names;
}
