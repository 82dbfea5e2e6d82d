import { readComposeDocument } from '../deployments/compose.js';
import { escapeDollars } from '../deployments/compose-reading/escape-dollars.js';
import type { ComposeVariables } from '../deployments/compose-reading/interpolation.js';
import { parseImageReference, repositoryOf } from '../deployments/image-reference.js';
import { resolveBareEnvironment } from './bare-environment.js';
import type { ServiceRoute } from '../events/deployments.events.js';
import { joinEdgeNetwork, type ComposeDocument } from './edge/edge-network.js';

/**
 * The compose file a deployment runs: the frozen compose normalized as the policy judged it
 * (readComposeDocument: anchors, merge keys, `extends` and tags resolved), interpolated with
 * the deployment's variables (secrets opened, where the policy saw a reference and judged the
 * place as unknown), every `$` left escaped so the server's Compose reads it as it is, every
 * `environment` and `build.args` entry without a value resolved from the same variables or left
 * out (resolveBareEnvironment: never from the server's environment), with
 * every service of the deployed repository pointed at the
 * deployment's image reference, written as JSON. JSON is YAML that every parser reads alike: no
 * anchors, merge keys, tags or implicit types are left for the server's Compose to read another
 * way than the policy did. Parsed within the same limits as at registration (a compose frozen
 * before they existed may be refused here, and the deployment fails with that reason). The
 * compose services the snapshot routes join the edge network (joinEdgeNetwork). An image built on
 * the server is never pulled (`pull_policy: never`): no registry has it.
 */
export function composeForDeployment(
  compose: string,
  variables: ComposeVariables,
  imageRef: string,
  edge: { project: string; routes: readonly ServiceRoute[] } = { project: '', routes: [] },
  /** The image was built on the server (a commit): its services never pull it. */
  builtHere = false,
): string {
  return composeText(composeDocumentForDeployment(compose, variables, imageRef, edge, builtHere));
}

/** The document of composeForDeployment, before it is written. */
export function composeDocumentForDeployment(
  compose: string,
  variables: ComposeVariables,
  imageRef: string,
  edge: { project: string; routes: readonly ServiceRoute[] } = { project: '', routes: [] },
  builtHere = false,
): ComposeDocument {
  const parsed = readComposeDocument(compose, variables);
  if (!parsed.ok) throw new Error(parsed.issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  resolveBareEnvironment(parsed.document, variables);
  const doc = parsed.document as ComposeDocument;
  const target = parseImageReference(imageRef);
  if (!target) throw new Error(`invalid image reference ${imageRef}`);
  const repository = repositoryOf(target);
  for (const service of Object.values(doc.services)) {
    const ref = service.image ? parseImageReference(service.image) : null;
    if (ref && repositoryOf(ref) === repository) {
      service.image = imageRef;
      if (builtHere) service.pull_policy = 'never';
    }
  }
  joinEdgeNetwork(doc, edge.project, edge.routes);
  return doc;
}

/** A document as the server's Compose reads it: JSON, every `$` escaped. */
export function composeText(document: object): string {
  return `${JSON.stringify(escapeDollars(document), null, 2)}\n`;
}
