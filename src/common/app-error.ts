import { ERROR_STATUS, type ErrorCode } from './error-codes.js';

export type ErrorData = Record<string, unknown>;

/** An error that is part of the API: it carries a catalogue code and safe, structured data. */
export class AppError extends Error {
  readonly status: number;
  /**
   * Who the refused caller turned out to be, for the audit trail only (never sent): e.g. the
   * account a wrong password was typed for, or the principal of a revoked token.
   */
  attribution?: { principalId: string | null; tokenId?: string | null };

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly data: ErrorData = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

/** One field problem inside a BAD_REQUEST answer. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** The same error, marked with who it concerned (for the audit trail). */
export function attributed(
  error: AppError,
  principalId: string | null,
  tokenId: string | null = null,
): AppError {
  error.attribution = { principalId, tokenId };
  return error;
}

export function badRequest(message: string, issues: FieldIssue[] = []): AppError {
  return new AppError('BAD_REQUEST', message, { issues });
}

export function notFound(message: string): AppError {
  return new AppError('NOT_FOUND', message);
}

export function conflict(message: string, data: ErrorData = {}): AppError {
  return new AppError('CONFLICT', message, data);
}
