/** One field problem of a BAD_REQUEST answer: `path` is the dotted field name. */
export interface FieldIssue {
  path: string;
  message: string;
}

/**
 * A refused or failed call, from the server's one error shape
 * (`{"error": {message, code, data}}`) or from a network failure (status 0, code `NETWORK`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> = {},
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
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

/** Credentials missing, unknown or expired: the browser needs to log in (again). */
const LOGGED_OUT_CODES = new Set([
  'AUTH_REQUIRED',
  'SESSION_EXPIRED',
  'TOKEN_INVALID',
  'TOKEN_REVOKED',
  'TOKEN_EXPIRED',
  'TOKEN_INVALIDATED',
]);

export function needsLogin(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && LOGGED_OUT_CODES.has(error.code);
}

export function needsMfa(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'MFA_REQUIRED';
}

/** The error of an answer whose status is not 2xx. */
export function errorFromAnswer(status: number, body: unknown, retryAfter: string | null) {
  const error = (body as { error?: unknown } | null)?.error;
  const seconds = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) : null;
  if (typeof error === 'object' && error !== null) {
    const { message, code, data } = error as Record<string, unknown>;
    return new ApiError(
      status,
      typeof code === 'string' ? code : 'UNKNOWN',
      typeof message === 'string' ? message : `The server answered ${status}`,
      typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {},
      seconds,
    );
  }
  return new ApiError(status, 'UNKNOWN', `The server answered ${status}`, {}, seconds);
}

export function networkError(cause: unknown): ApiError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new ApiError(0, 'NETWORK', `Slipway could not be reached (${detail}).`);
}

/** A sentence for a person: what went wrong and, where it helps, what to do. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError)) {
    return error instanceof Error ? error.message : 'Something went wrong.';
  }
  switch (error.code) {
    case 'RATE_LIMITED':
      return error.retryAfterSeconds !== null
        ? `Too many attempts. Try again in ${waitText(error.retryAfterSeconds)}.`
        : 'Too many attempts. Wait a moment and try again.';
    case 'FORBIDDEN':
      // A refusal by role or scope says so; one by a rule (`data.rule`: two humans, rank,
      // session only...) is said in the server's words alone.
      return typeof error.data.rule !== 'string' &&
        ('requiredScopes' in error.data || 'requiredRoles' in error.data)
        ? `${error.message}. Your role does not allow this; an owner or admin can change it.`
        : `${error.message.replace(/\.$/, '')}.`;
    case 'NETWORK':
      return error.message;
    default:
      return error.message.endsWith('.') ? error.message : `${error.message}.`;
  }
}

function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}
