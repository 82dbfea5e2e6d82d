import { HttpException, Logger } from '@nestjs/common';
import { AppError } from '../common/app-error.js';
import type { ErrorCode } from '../common/error-codes.js';
import { errorForLog } from '../common/log-text.js';
import { InvalidQueryError } from '../readstore/invalid-query.error.js';
import { isStoreUnreachable } from '../readstore/unreachable-store.js';

const logger = new Logger('Errors');

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'AUTH_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'BAD_REQUEST',
  429: 'RATE_LIMITED',
};

/** Body-parser failures carry a `type` and an HTTP status of their own. */
interface ParserError {
  type: string;
  status: number;
}

function isParserError(error: unknown): error is ParserError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as Partial<ParserError>).type === 'string' &&
    typeof (error as Partial<ParserError>).status === 'number'
  );
}

function describeParserError(error: ParserError): AppError {
  switch (error.type) {
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB');
    case 'entity.parse.failed':
      return new AppError('BAD_REQUEST', 'The request body is not valid JSON', { issues: [] });
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new AppError('BAD_REQUEST', 'The request body encoding is not supported', {
        issues: [],
      });
    default:
      return new AppError('BAD_REQUEST', 'The request body could not be read', { issues: [] });
  }
}

/**
 * Any thrown value as the API error it is answered with, on every surface (the HTTP filter, the
 * call pipeline, MCP tool results): only a bug yields a 500.
 */
export function toAppError(error: unknown, requestId: string): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof InvalidQueryError) {
    return new AppError('BAD_REQUEST', error.message, { issues: [] });
  }
  if (isParserError(error) && error.status >= 400 && error.status < 500) {
    return describeParserError(error);
  }
  if (error instanceof HttpException && error.getStatus() < 500) {
    const code = STATUS_CODES[error.getStatus()] ?? 'BAD_REQUEST';
    const message = code === 'NOT_FOUND' ? 'No such route' : error.message;
    return new AppError(code, message);
  }
  if (isStoreUnreachable(error)) {
    logger.warn(`Request ${requestId}: the store is unreachable`, errorForLog(error));
    return new AppError(
      'SERVICE_UNAVAILABLE',
      'The database cannot be reached at the moment; try again shortly (a command may have been recorded: read before repeating it)',
      { requestId },
    );
  }
  logger.error(`Unexpected error in request ${requestId}`, errorForLog(error));
  return new AppError('INTERNAL_SERVER_ERROR', 'An unexpected error occurred', { requestId });
}
