import { parse, stringify } from 'yaml';
import { parseImageReference, repositoryOf } from '../deployments/image-reference.js';

/**
 * The compose file a deployment runs: the frozen compose with every service of the deployed
 * repository pointed at the deployment's image reference.
 */
export function composeForDeployment(compose: string, imageRef: string): string {
  const doc = parse(compose) as { services: Record<string, { image?: string }> };
  const target = parseImageReference(imageRef);
  if (!target) throw new Error(`invalid image reference ${imageRef}`);
  const repository = repositoryOf(target);
  for (const service of Object.values(doc.services)) {
    const ref = service.image ? parseImageReference(service.image) : null;
    if (ref && repositoryOf(ref) === repository) service.image = imageRef;
  }
  return stringify(doc);
}
