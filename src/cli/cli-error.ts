import { DENIAL_CODES } from '../common/error-codes.js';

/** A failure the CLI reports as `{"ok":false,"error":{code,message,data}}` with an exit code. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** The server's denials, and the CLI's own "no credentials stored". */
const DENIED: ReadonlySet<string> = new Set([...DENIAL_CODES, 'NOT_LOGGED_IN']);

/** 0 ok, 1 error, 2 authentication or permission denied, 3 a plan that is not ready. */
export function exitCodeFor(code: string): number {
  if (code === 'PLAN_NOT_READY') return 3;
  return DENIED.has(code) ? 2 : 1;
}
