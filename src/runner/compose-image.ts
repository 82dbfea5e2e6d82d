import { stringify } from 'yaml';
import { parseBoundedYaml } from '../common/bounded-yaml.js';
import { COMPOSE_LIMITS } from '../deployments/compose-limits.js';
import { parseImageReference, repositoryOf } from '../deployments/image-reference.js';

/**
 * The compose file a deployment runs: the frozen compose with every service of the deployed
 * repository pointed at the deployment's image reference. Parsed within the same limits as at
 * registration (a compose frozen before they existed may be refused here, and the deployment
 * fails with that reason instead of stalling the runner).
 */
export function composeForDeployment(compose: string, imageRef: string): string {
  const parsed = parseBoundedYaml(compose, 'compose', COMPOSE_LIMITS);
  if (!parsed.ok) throw new Error(parsed.issues.map((i) => i.message).join('; '));
  const doc = parsed.value as { services: Record<string, { image?: string }> };
  const target = parseImageReference(imageRef);
  if (!target) throw new Error(`invalid image reference ${imageRef}`);
  const repository = repositoryOf(target);
  for (const service of Object.values(doc.services)) {
    const ref = service.image ? parseImageReference(service.image) : null;
    if (ref && repositoryOf(ref) === repository) service.image = imageRef;
  }
  return stringify(doc);
}
