import type { Request, Response } from 'express';
import type { RefusalRecorder } from '../audit/refusals/refusal-recorder.js';
import { toAppError } from '../kernel/app-error-of.js';
import { sendError } from './error-response.js';
import { requestIdOf } from './request-id.js';

/**
 * Answers a failed request in the documented shape, after putting it on the audit trail when it
 * is a refusal worth recording (unless the call pipeline already did). When that record cannot
 * be written the caller gets 503 instead of the refusal: no refusal goes unrecorded.
 */
export async function answerError(
  recorder: RefusalRecorder | null,
  req: Request,
  res: Response,
  exception: unknown,
): Promise<void> {
  const requestId = requestIdOf(req);
  const error = toAppError(exception, requestId);
  sendError(res, recorder ? await recorder.recordFailure(req, error, exception) : error, requestId);
}
