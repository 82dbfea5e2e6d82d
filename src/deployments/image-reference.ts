/**
 * A Docker image reference that pins what runs: `[registry[:port]/]repo[/path]:tag`,
 * `...@sha256:<64 hex>` or both. A bare name (implicitly `latest`) is refused: a deployment
 * must say which image it means.
 */
export interface ImageReference {
  registry: string | null;
  repository: string;
  tag: string | null;
  digest: string | null;
}

const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const DOMAIN =
  '(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]{1,5})?)';
const REFERENCE = new RegExp(
  `^(?:(${DOMAIN})/)?(${COMPONENT}(?:/${COMPONENT})*)(?::([A-Za-z0-9_][A-Za-z0-9_.-]{0,127}))?(?:@(sha256:[a-f0-9]{64}))?$`,
);

export function parseImageReference(value: string): ImageReference | null {
  if (typeof value !== 'string' || value.length > 512) return null;
  const match = REFERENCE.exec(value);
  if (!match) return null;
  let [, registry, repository] = match;
  const [, , , tag, digest] = match;
  // `localhost/x` and `host.tld/x` name a registry; a single lower-case word is a Docker Hub namespace.
  if (registry && !registry.includes('.') && !registry.includes(':') && registry !== 'localhost') {
    repository = `${registry}/${repository}`;
    registry = undefined as unknown as string;
  }
  if (!tag && !digest) return null;
  return { registry: registry ?? null, repository, tag: tag ?? null, digest: digest ?? null };
}

export function formatImageReference(ref: ImageReference): string {
  return `${ref.registry ? `${ref.registry}/` : ''}${ref.repository}${ref.tag ? `:${ref.tag}` : ''}${ref.digest ? `@${ref.digest}` : ''}`;
}

/** `registry/repo` without tag or digest: what a service's image repository is compared to. */
export function repositoryOf(ref: ImageReference): string {
  return `${ref.registry ? `${ref.registry}/` : ''}${ref.repository}`;
}
