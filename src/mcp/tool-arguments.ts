import { badRequest } from '../common/app-error.js';

/** The commands whose answer names a deployment a caller can wait for. */
const DEPLOYMENT_STARTERS: ReadonlySet<string> = new Set(['triggerDeploy', 'executeRollback']);

export function startsDeployment(name: string): boolean {
  return DEPLOYMENT_STARTERS.has(name);
}

/** A tool call's arguments: the procedure's input, and the MCP-only fields taken out of it. */
export interface ToolArguments {
  input: Record<string, unknown>;
  planId: string | null;
  wait: boolean;
  /** How long a wait may last, in seconds. */
  waitSeconds: number;
}

/**
 * A wait answers within this by default: the official SDK's clients give up on a request after
 * 60 s unless progress resets their timer, and the deployment goes on whatever the client does.
 */
export const DEFAULT_WAIT_SECONDS = 45;
export const MAX_WAIT_SECONDS = 900;

/**
 * Splits the MCP-only fields off (only for the tools that declare them; elsewhere they stay in
 * the input and are refused by its validation as unknown fields). Their own rules are checked
 * here, `null` included, with the same issue shape as input validation.
 */
export function splitArguments(
  args: Record<string, unknown> | undefined,
  options: { planGated: boolean; waitable: boolean },
): ToolArguments {
  const input = { ...(args ?? {}) };
  let planId: string | null = null;
  let wait = false;
  if (options.planGated && 'planId' in input) {
    const value = input.planId;
    delete input.planId;
    if (typeof value !== 'string' || value.length === 0 || value.length > 1024) {
      throw badRequest('Input is invalid', [
        { path: 'planId', message: 'planId must be a string of 1-1024 characters' },
      ]);
    }
    planId = value;
  }
  if (options.waitable && 'wait' in input) {
    const value = input.wait;
    delete input.wait;
    if (typeof value !== 'boolean') {
      throw badRequest('Input is invalid', [{ path: 'wait', message: 'wait must be a boolean' }]);
    }
    wait = value;
  }
  let waitSeconds = DEFAULT_WAIT_SECONDS;
  if (options.waitable && 'waitSeconds' in input) {
    const value = input.waitSeconds;
    delete input.waitSeconds;
    if (
      typeof value !== 'number' ||
      !Number.isInteger(value) ||
      value < 1 ||
      value > MAX_WAIT_SECONDS
    ) {
      throw badRequest('Input is invalid', [
        {
          path: 'waitSeconds',
          message: `waitSeconds must be an integer from 1 to ${MAX_WAIT_SECONDS}`,
        },
      ]);
    }
    waitSeconds = value;
  }
  return { input, planId, wait, waitSeconds };
}
