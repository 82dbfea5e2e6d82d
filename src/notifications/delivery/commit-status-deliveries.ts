import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import type { CommitState, CommitStatus } from '../../deployments/git/commit-status-request.js';

/** The deliveries of a service's commit statuses go under this channel id. */
export const COMMIT_STATUS_CHANNEL_PREFIX = 'commit-status:';
export const COMMIT_STATUS_SUBJECT = 'commit.status';

/** What each deployment event says as a commit status. */
const STATES: Readonly<Record<string, { state: CommitState; description: string }>> = {
  DeploymentTriggered: { state: 'pending', description: 'Queued: build and deploy' },
  DeploymentStarted: { state: 'pending', description: 'Building and deploying' },
  DeploymentSucceeded: { state: 'success', description: 'Deployed' },
  DeploymentFailed: { state: 'failure', description: 'The build or deployment failed' },
  DeploymentCancelled: { state: 'error', description: 'Cancelled' },
};

export const COMMIT_STATUS_EVENTS: ReadonlySet<string> = new Set(Object.keys(STATES));

/** A commit status delivery's payload: the status, and whose source reports it (its token). */
export type CommitStatusPayload = CommitStatus & { serviceId: string; deploymentId: string };

/**
 * The commit status a deployment event reports, or null: only deployments of a commit, of a
 * service whose source reports statuses (`service`: the one whose source built it, for a preview
 * the service it previews). Pure; `publicUrl` is where the deployment's page is. A preview that
 * is up links to its own address instead.
 */
export function commitStatusOf(
  eventType: string,
  deployment: DeploymentDoc | null,
  service: ServiceDoc | null,
  publicUrl: string,
): CommitStatusPayload | null {
  const said = STATES[eventType];
  const git = deployment?.snapshot.git;
  if (!said || !deployment || !git || !service?.gitSource?.commitStatus) return null;
  if (service.gitSource.repository !== git.repository) return null;
  const preview = said.state === 'success' ? (git.previewUrl ?? null) : null;
  return {
    serviceId: service.id,
    deploymentId: deployment.id,
    commit: git.commit,
    state: said.state,
    description: preview ? `Preview ready at ${preview}` : said.description,
    targetUrl: preview ?? new URL(`/deployments/${deployment.id}`, publicUrl).href,
    context: `slipway/${deployment.serviceName}@${deployment.environment}`,
  };
}
