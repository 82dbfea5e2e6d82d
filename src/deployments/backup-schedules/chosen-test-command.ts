import { decideScopes } from '../../access/access-decision.js';
import type { RequestContext } from '../../kernel/request-context.js';

/**
 * A restore test's command of the caller's choosing sees a backup's data and answers through its
 * exit code, as code a deploy starts would: choosing one (to run now, or on a schedule's every
 * backup) takes `deploy:start` as well as `backup:write`, in the service's project. Running the
 * schedule's own test takes `backup:write` only.
 */
export function mayChooseTestCommand(procedure: string, ctx: RequestContext): void {
  decideScopes({ name: procedure, scopes: ['backup:write', 'deploy:start'] }, ctx.scopes);
}
