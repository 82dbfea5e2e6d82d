import type { RequestContext } from '../../kernel/request-context.js';
import type { PendingApproval } from '../approval-requests.js';
import {
  requesterOf,
  triggerOf,
  type LaunchRequest,
  type QueuedDeploymentAnswer,
} from '../deployment-launcher.js';
import type { ApprovalAsk, DeploymentRequests } from '../deployment-requests.js';

/** What a deploy the caller asks for runs: the service, its image, and what it is made of. */
export type DeployLaunch = Pick<
  LaunchRequest,
  'service' | 'imageRef' | 'snapshot' | 'overrideDigest'
>;

/**
 * A deploy the caller asks for (an image, a commit), triggered and requested by the caller under
 * its idempotency key: queued, or an approval request when the service's rule (or `ask`) asks
 * for one (see DeploymentRequests).
 */
export function requestDeploy(
  requests: DeploymentRequests,
  launch: DeployLaunch,
  ask: Omit<ApprovalAsk, 'action'>,
  ctx: RequestContext,
): Promise<QueuedDeploymentAnswer | PendingApproval> {
  return requests.request(
    {
      ...launch,
      trigger: triggerOf(ctx),
      requestedBy: requesterOf(ctx),
      idempotencyKey: ctx.idempotencyKey,
    },
    { action: 'deploy', ...ask },
    ctx,
  );
}
