import { Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { refusalOf } from '../audit/refusals/refusal-of.js';
import type { RefusalRecorder } from '../audit/refusals/refusal-recorder.js';
import { AppError } from '../common/app-error.js';
import { sendError, toAppError } from './error-response.js';
import { requestIdOf } from './request-id.js';
import { errorForLog } from '../common/log-text.js';

const logger = new Logger('Audit');

/**
 * Answers a failed request in the documented shape, after putting it on the audit trail when it
 * is a refusal worth recording. When that record cannot be written the caller gets 503 instead
 * of the refusal: no refusal goes unrecorded.
 */
export async function answerError(
  recorder: RefusalRecorder | null,
  req: Request,
  res: Response,
  exception: unknown,
): Promise<void> {
  const requestId = requestIdOf(req);
  const error = toAppError(exception, requestId);
  const refusal = recorder ? refusalOf(req, error, exception) : null;
  if (refusal && recorder) {
    try {
      await recorder.record(refusal);
    } catch (writeError) {
      logger.error(`Could not record the refusal of request ${requestId}`, errorForLog(writeError));
      sendError(
        res,
        new AppError('SERVICE_UNAVAILABLE', 'The audit trail could not record this call'),
        requestId,
      );
      return;
    }
  }
  sendError(res, error, requestId);
}
