import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { readComposeDocument } from '../deployments/compose.js';
import { isMap, type ComposeMap } from '../deployments/compose-reading/compose-merge.js';
import { parseImageReference, repositoryOf } from '../deployments/image-reference.js';

/**
 * The services of a repository's compose file that build their own image (`build:` without
 * `image:`), as a commit's deployment builds them from the checkout: each gets an image of its
 * own in the deployment's repository, tagged after the commit's (`<repo>:<tag>-<service>`).
 */

/** A build context that is not a directory of the checkout: a URL or a git remote. */
const NOT_A_DIRECTORY = /^[a-z][a-z0-9+.-]*:\/\/|^git@/i;

/** The most a tag may be (the distribution spec). */
const MAX_TAG = 128;

/** The image a service that builds is tagged with: the deployment's repository, a tag of its own. */
export function serviceImage(imageRef: string, service: string): string {
  const ref = parseImageReference(imageRef);
  if (!ref) throw new Error(`invalid image reference ${imageRef}`);
  const base = ref.tag ?? 'latest';
  const tag =
    base.length + 1 + service.length <= MAX_TAG
      ? `${base}-${service}`
      : `${base.slice(0, 100)}-${createHash('sha256').update(service).digest('hex').slice(0, 16)}`;
  return `${repositoryOf(ref)}:${tag}`;
}

type PathEdit = (path: string) => string;

/** A path on the server's disk, relative to the project's directory. */
const relative = (path: string) =>
  !path.startsWith('/') &&
  !path.startsWith('~') &&
  !path.includes('$') &&
  !NOT_A_DIRECTORY.test(path);

/** `additional_contexts` sources that name no directory (an image, a stage, a service). */
const NAMED_SOURCE = /^(docker-image|service|target):/i;

/** `oci-layout://<path>` names a directory. */
const OCI_LAYOUT = /^oci-layout:\/\//i;

function editSource(source: string, edit: PathEdit): string {
  if (NAMED_SOURCE.test(source)) return source;
  const layout = OCI_LAYOUT.exec(source)?.[0] ?? '';
  return `${layout}${edit(source.slice(layout.length))}`;
}

/** Applies `edit` to the directories a service's build reads from: context and additional ones. */
function eachContext(build: ComposeMap, edit: PathEdit): void {
  const context = typeof build.context === 'string' ? build.context : '.';
  const edited = edit(context);
  if (edited !== context || typeof build.context === 'string') build.context = edited;
  const extra = build.additional_contexts;
  if (isMap(extra))
    for (const [name, source] of Object.entries(extra))
      if (typeof source === 'string') extra[name] = editSource(source, edit);
  if (Array.isArray(extra))
    build.additional_contexts = extra.map((entry) => {
      if (typeof entry !== 'string' || !entry.includes('=')) return entry;
      const at = entry.indexOf('=');
      return `${entry.slice(0, at)}=${editSource(entry.slice(at + 1), edit)}`;
    });
}

/** Each service's build in its long form (`build: dir` is `build: {context: dir}`). */
function builds(document: ComposeMap): ComposeMap[] {
  const services = isMap(document.services) ? document.services : {};
  const found: ComposeMap[] = [];
  for (const service of Object.values(services)) {
    if (!isMap(service)) continue;
    if (typeof service.build === 'string') service.build = { context: service.build };
    if (isMap(service.build)) found.push(service.build);
  }
  return found;
}

/**
 * A compose file kept at `composeFile` in the repository, its build contexts made relative to
 * the repository's root rather than the file's own directory (where Compose reads them from),
 * so that the policy judges them where the build reads them and the build runs from the root.
 * The same text when the file is at the root or nothing builds. The document is written as
 * JSON uninterpolated (`$` as written): read again, it is the same definition.
 */
export function rootedBuildPaths(text: string, composeFile: string): string {
  const dir = posix.dirname(composeFile);
  if (dir === '.') return text;
  const read = readComposeDocument(text, null);
  if (!read.ok) return text;
  const found = builds(read.document);
  for (const build of found)
    eachContext(build, (path) => (relative(path) ? posix.join(dir, path) : path));
  return found.length ? JSON.stringify(read.document) : text;
}

const escapes = (path: string) => relative(path) && posix.normalize(path).startsWith('..');

/** `type=local,src=…` / `dest=…` of a build cache: a directory the build reads or writes. */
function cacheDirectories(value: unknown): string[] {
  const entries = Array.isArray(value) ? value : [];
  return entries.flatMap((entry) =>
    String(entry)
      .split(',')
      .map((part) => part.split('=', 2).map((s) => s.trim()))
      .filter(([key]) => key === 'src' || key === 'dest')
      .map(([, dir]) => dir ?? ''),
  );
}

/**
 * What a document's builds (interpolated, as they will run from the repository's root) would
 * read or write outside the checkout: `../` from there reaches the deployment's own files and
 * other deployments'. Contexts, Dockerfiles, additional contexts, local caches, and the files
 * of secrets a build may mount. Never built, whatever the server's policy allows.
 */
export function buildsOutsideCheckout(document: ComposeMap): string[] {
  const outside: string[] = [];
  const check = (path: string) => {
    if (escapes(path)) outside.push(path);
    return path;
  };
  for (const build of builds(structuredClone(document))) {
    eachContext(build, check);
    const context = typeof build.context === 'string' ? build.context : '.';
    if (typeof build.dockerfile === 'string' && relative(context))
      check(posix.join(context, build.dockerfile));
    for (const dir of [...cacheDirectories(build.cache_from), ...cacheDirectories(build.cache_to)])
      check(dir);
  }
  for (const top of [document.secrets, document.configs])
    if (isMap(top))
      for (const entry of Object.values(top))
        if (isMap(entry) && typeof entry.file === 'string') check(entry.file);
  return [...new Set(outside)];
}

/**
 * The documents of a deployment whose services build: the one the build runs (each builder
 * tagged with its image), and the one that runs (no `build:` left, so `up` never builds; the
 * images never pulled when they were built on this server).
 */
export function buildDocuments(
  document: ComposeMap,
  images: ReadonlyMap<string, string>,
  builtHere: boolean,
): { build: ComposeMap; run: ComposeMap } {
  const build = structuredClone(document);
  const run = structuredClone(document);
  for (const [name, image] of images) {
    const services = [build.services, run.services] as ComposeMap[];
    for (const all of services) (all[name] as ComposeMap).image = image;
    const ran = (run.services as ComposeMap)[name] as ComposeMap;
    delete ran.build;
    if (builtHere) ran.pull_policy = 'never';
  }
  return { build, run };
}
