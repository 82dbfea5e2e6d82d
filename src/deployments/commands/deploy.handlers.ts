import { badRequest } from '../../common/app-error.js';
import type {
  DeploymentContext,
  DeploymentFile,
  DeploymentSnapshot,
  RecordedEnvVar,
} from '../../events/deployments.events.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { parseImageReference, repositoryOf } from '../image-reference.js';

// What the deploy commands share (triggerDeploy, executeRollback, requestApproval, the compose
// intake and deploy hooks): the override an intake brings, the answer of a queued deployment,
// the repository check.

/**
 * What a compose intake brings for one deployment instead of the service's own settings: its
 * compose file, files beside it, env (sealed) and an uploaded build context. `digest` sums the
 * request as sent (secrets unsealed), so a repeat is recognised by its idempotency key.
 */
export interface DeploymentOverride {
  compose: string;
  files: DeploymentFile[];
  env: RecordedEnvVar[] | null;
  context: DeploymentContext | null;
  digest: string;
}

/** The snapshot a deployment of `service` freezes with an override (a compose intake). */
export function overrideSnapshot(
  service: ServiceDoc,
  imageRef: string,
  override: DeploymentOverride,
): DeploymentSnapshot {
  return {
    serviceName: service.name,
    environment: service.environment,
    serverId: service.serverId,
    imageRef,
    compose: override.compose,
    env: override.env ?? service.env,
    healthCheckUrl: service.healthCheckUrl,
    files: override.files,
    context: override.context,
  };
}

export interface QueuedDeploymentAnswer {
  status: 'queued';
  deploymentId: string;
  created: boolean;
}

/** The service's image only: a tag of another repository is a mistake, not a deployment. */
export function checkRepository(imageRef: string, repository: string): void {
  const ref = parseImageReference(imageRef)!;
  if (repositoryOf(ref) !== repository) {
    throw badRequest(`imageTag must be an image of ${repository}`, [
      { path: 'imageTag', message: `repository ${repositoryOf(ref)} is not the service's` },
    ]);
  }
}
