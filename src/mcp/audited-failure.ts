import { Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { refusalOf } from '../audit/refusals/refusal-of.js';
import { RefusalRecorder } from '../audit/refusals/refusal-recorder.js';
import { AppError } from '../common/app-error.js';
import { errorForLog } from '../common/log-text.js';
import { toAppError } from '../http/error-response.js';

const logger = new Logger('Mcp');

/**
 * A failed MCP call, put on the audit trail by the same rules as `/trpc` (every refused command,
 * every access refusal) before it is answered. When the record cannot be written the caller gets
 * SERVICE_UNAVAILABLE instead: no refusal goes unrecorded.
 */
@Injectable()
export class AuditedFailure {
  constructor(private readonly refusals: RefusalRecorder) {}

  async of(call: Request, thrown: unknown): Promise<AppError> {
    const requestId = typeof call.requestId === 'string' ? call.requestId : 'unknown';
    const error = toAppError(thrown, requestId);
    const refusal = refusalOf(call, error, thrown);
    if (!refusal) return error;
    try {
      await this.refusals.record(refusal);
      return error;
    } catch (writeError) {
      logger.error(`Could not record the refusal of request ${requestId}`, errorForLog(writeError));
      return new AppError('SERVICE_UNAVAILABLE', 'The audit trail could not record this call');
    }
  }
}
