import type { ErrorCode } from './contract.js';

/** One field problem of a BAD_REQUEST answer: `path` is the dotted field name. */
export interface FieldIssue {
  path: string;
  message: string;
}

/**
 * What a refused or failed call carries: `code` is the server's catalogue code (`ErrorCode`,
 * the same strings as the API's error shape), `NETWORK` when nothing answered, `UNKNOWN` when
 * something answered that is not Slipway's error shape.
 */
export type SlipwayErrorCode = ErrorCode | 'NETWORK' | 'UNKNOWN';

/** A refused or failed call, from the server's one error shape `{"error": {message, code, data}}`. */
export class SlipwayError extends Error {
  constructor(
    /** The HTTP status (0 when nothing answered). */
    readonly status: number,
    readonly code: SlipwayErrorCode,
    message: string,
    readonly data: Record<string, unknown> = {},
    /** From `Retry-After`, on RATE_LIMITED and SERVICE_UNAVAILABLE. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'SlipwayError';
  }

  /** The per-field problems of a BAD_REQUEST, if any. */
  get issues(): FieldIssue[] {
    const issues = this.data.issues;
    if (!Array.isArray(issues)) return [];
    return issues.filter(
      (i): i is FieldIssue =>
        typeof i === 'object' &&
        i !== null &&
        typeof (i as FieldIssue).path === 'string' &&
        typeof (i as FieldIssue).message === 'string',
    );
  }
}

/** The error of an answer whose status is not 2xx. */
export function errorFromAnswer(
  status: number,
  body: unknown,
  retryAfter: string | null,
): SlipwayError {
  const error = (body as { error?: unknown } | null)?.error;
  const seconds = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) : null;
  if (typeof error === 'object' && error !== null) {
    const { message, code, data } = error as Record<string, unknown>;
    return new SlipwayError(
      status,
      typeof code === 'string' ? (code as SlipwayErrorCode) : 'UNKNOWN',
      typeof message === 'string' ? message : `The server answered ${status}`,
      typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {},
      seconds,
    );
  }
  return new SlipwayError(status, 'UNKNOWN', `The server answered ${status}`, {}, seconds);
}

export function networkError(cause: unknown): SlipwayError {
  const detail =
    cause instanceof Error
      ? cause.cause instanceof Error
        ? cause.cause.message
        : cause.message
      : String(cause);
  return new SlipwayError(0, 'NETWORK', `Slipway could not be reached (${detail}).`);
}
