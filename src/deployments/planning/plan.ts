export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface PreflightCheck {
  check: string;
  status: CheckStatus;
  detail: string;
}

export interface Plan {
  isReady: boolean;
  preflightChecks: PreflightCheck[];
  steps: string[];
  approvalRequired: boolean;
  executeCommand: string;
}

export const ok = (check: string, detail: string): PreflightCheck => ({
  check,
  status: 'ok',
  detail,
});
export const warn = (check: string, detail: string): PreflightCheck => ({
  check,
  status: 'warn',
  detail,
});
export const fail = (check: string, detail: string): PreflightCheck => ({
  check,
  status: 'fail',
  detail,
});

/** A plan is ready when no check failed; warnings are for the reader. */
export function plan(
  checks: PreflightCheck[],
  steps: string[],
  approvalRequired: boolean,
  executeCommand: string,
): Plan {
  return {
    isReady: checks.every((c) => c.status !== 'fail'),
    preflightChecks: checks,
    steps,
    approvalRequired,
    executeCommand,
  };
}

/** Quotes one CLI argument for a POSIX shell, so a printed command runs as shown. */
export function shellArg(value: string): string {
  return /^[A-Za-z0-9_./:@=-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

export const RETENTION_DAYS = 30;
