import { Catch, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { refusalOf } from '../audit/refusals/refusal-of.js';
import type { RefusalRecorder } from '../audit/refusals/refusal-recorder.js';
import { AppError } from '../common/app-error.js';
import { requestIdOf } from './request-id.js';
import { sendError, toAppError } from './error-response.js';

const logger = new Logger('Audit');

/**
 * The one place where every surface's errors take the documented shape, and where refused
 * calls are put on the audit trail before they are answered. When that record cannot be
 * written the caller gets 503 instead of the refusal: no refusal goes unrecorded.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(private readonly refusals: RefusalRecorder | null = null) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const requestId = requestIdOf(req);
    const error = toAppError(exception, requestId);
    const refusal = this.refusals ? refusalOf(req, error, exception) : null;
    if (refusal && this.refusals) {
      try {
        await this.refusals.record(refusal);
      } catch (writeError) {
        logger.error(
          `Could not record the refusal of request ${requestId}`,
          writeError instanceof Error ? writeError.stack : String(writeError),
        );
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
}
