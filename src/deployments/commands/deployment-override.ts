import type {
  DeploymentContext,
  DeploymentFile,
  DeploymentSnapshot,
  RecordedEnvVar,
} from '../../events/deployments.events.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { serviceSnapshot } from '../deployment-launcher.js';

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
    ...serviceSnapshot(service, imageRef),
    compose: override.compose,
    env: override.env ?? service.env,
    files: override.files,
    context: override.context,
  };
}
