import type { Type } from '@nestjs/common';
import type { AccessTarget } from '../../access/access.service.js';
import type { AuditTarget } from '../../kernel/audit-attribution.js';
import type { ProcedureAuth } from '../../kernel/procedure.js';

/**
 * Who may make a call. `public` and `authenticated` are the guard's (role ∩ scopes, MFA policy,
 * session-only); `signed`: the caller proves itself inside the call (an inbound hook's HMAC
 * signature, checked by its handler), so the pipeline knows it only as an anonymous request.
 */
export type CallAccess = (AccessTarget & { auth: ProcedureAuth }) | { auth: 'signed' };

/** What one call reaches: the access it needs, and the name its refusals are recorded under. */
export interface CallTarget {
  access: CallAccess;
  audit: AuditTarget;
}

/** One part of a call's input: its class-validator class (none: it must be empty) and value. */
export interface InputPart<T = unknown> {
  type: Type<object> | undefined;
  /**
   * Read when the step is reached (and awaited): reading may itself refuse, e.g. malformed JSON
   * or a REST route's path parameters that its params class refuses.
   */
  value: () => unknown;
  /** Only for typing the validated value. */
  readonly validated?: T;
}

/** A part to validate against `type`. */
export function inputPart<T extends object>(type: Type<T>, value: () => unknown): InputPart<T>;
export function inputPart(
  type: Type<object> | undefined,
  value: () => unknown,
): InputPart<object | undefined>;
export function inputPart(type: Type<object> | undefined, value: () => unknown): InputPart {
  return { type, value };
}

/** The validated values of a call's input parts, in order. */
export type Validated<P extends readonly InputPart[]> = {
  [K in keyof P]: P[K] extends InputPart<infer T> ? T : never;
};
