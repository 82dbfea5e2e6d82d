import type { Request } from 'express';
import type { AppError } from '../../common/app-error.js';
import { auditMarks } from '../../kernel/audit-attribution.js';
import type { Refusal } from './refusal-coalescer.js';
import { isAccessRefusal } from '../../events/refusal.events.js';

/**
 * The audit record a failed request calls for, or null. Every refusal of a state-changing call
 * is recorded; reads are recorded when access was denied (not for their own bad input).
 */
export function refusalOf(req: Request, error: AppError, thrown: unknown): Refusal | null {
  const { target, caller, inputFields } = auditMarks(req);
  if (!target) return null;
  if (target.lane !== 'command' && !isAccessRefusal(error.code)) return null;
  const who = error === thrown ? error.attribution : undefined;
  return {
    target,
    caller: caller ?? {
      principalId: who?.principalId ?? null,
      kind: 'anonymous',
      role: null,
      authMethod: 'none',
      tokenId: who?.tokenId ?? null,
    },
    clientAddress: req.ip ?? null,
    code: error.code,
    inputFields: inputFields?.() ?? [],
    requestId: typeof req.requestId === 'string' ? req.requestId : null,
  };
}
