import type { FieldIssue } from '../common/app-error.js';
import { judgeCompose } from './compose-policy/compose-violations.js';
import { isMap } from './compose-reading/compose-merge.js';
import { schemaIssues } from './compose-reading/compose-schema.js';
import type { ComposeVariables } from './compose-reading/interpolation.js';
import { portIssue, portText } from './compose-reading/port-syntax.js';
import { readComposeDocument } from './compose-reading/read-compose.js';
import { reservedNameIssues } from './compose-reading/reserved-names.js';
import { parseImageReference } from './image-reference.js';

export { readComposeDocument } from './compose-reading/read-compose.js';

export interface ComposeSummary {
  services: {
    name: string;
    /** Null when the service only builds (`build:` and no `image:`): Compose names the image. */
    image: string | null;
    builds: boolean;
    ports: string[];
    volumes: string[];
  }[];
  /** The normalized document (see readComposeDocument), for checks that read more of it. */
  document: Record<string, unknown>;
  /** Variables the file reads that the service does not set (read as empty). */
  unset: string[];
}

/** `overLimits`: refused before parsing (size, nodes, depth, aliases; see COMPOSE_LIMITS). */
export type ComposeResult =
  { ok: true; summary: ComposeSummary } | { ok: false; issues: FieldIssue[]; overLimits?: boolean };

const NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$/;

/** A repository alone, as `image: postgres` names one: what Compose would pull as `latest`. */
const UNTAGGED =
  /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*$|^[a-z0-9.-]+(?::\d+)?(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)+$/;

/**
 * Why an image cannot run as given. An untagged one would be whatever `latest` is when the
 * server pulls it: the message shows the pinned references to write instead.
 */
function imageProblem(image: unknown): string {
  if (typeof image === 'string' && UNTAGGED.test(image))
    return `${image} has no tag: it would run whatever latest is when pulled; pin it: ${image}:<version> or ${image}@sha256:<digest>`;
  if (image === undefined || image === null)
    return 'needs image: (a reference with a tag or digest) or build:';
  return 'must be an image reference with a tag or digest';
}

/**
 * Reads a compose definition as Compose does (readComposeDocument, with the service's
 * variables) and checks the normalized document: the Compose specification's schema, a
 * `services` map, each service with an image reference that pins a tag or digest or a `build:`
 * of its own, well-formed port mappings, and no key the specification does not have.
 */
export function validateCompose(text: string, variables?: ComposeVariables): ComposeResult {
  const read = readComposeDocument(text, variables ?? new Map());
  if (!read.ok) return { ok: false, issues: read.issues, overLimits: read.cause === 'limits' };
  const doc = read.document;
  if (!isMap(doc.services) || Object.keys(doc.services).length === 0) {
    return {
      ok: false,
      issues: [{ path: 'compose.services', message: 'must map service names to definitions' }],
    };
  }
  const issues: FieldIssue[] = [];
  const services: ComposeSummary['services'] = [];
  for (const [name, raw] of Object.entries(doc.services)) {
    const at = `compose.services.${name}`;
    if (!NAME.test(name))
      issues.push({ path: at, message: 'service names are letters, digits, _ . -' });
    if (!isMap(raw)) {
      issues.push({ path: at, message: 'must be a mapping' });
      continue;
    }
    const builds = raw.build !== undefined && raw.build !== null;
    const image = typeof raw.image === 'string' ? raw.image : null;
    if ((image === null && !builds) || (image !== null && !parseImageReference(image)))
      issues.push({ path: `${at}.image`, message: imageProblem(raw.image) });
    const ports = listOf(raw.ports, `${at}.ports`, issues);
    ports.forEach((p, i) => {
      const problem = portIssue(p);
      if (problem) issues.push({ path: `${at}.ports[${i}]`, message: problem });
    });
    const volumes = listOf(raw.volumes, `${at}.volumes`, issues);
    volumes
      .map(volumeText)
      .filter((v) => v.length === 0 || v.length > 1024)
      .forEach(() =>
        issues.push({ path: `${at}.volumes`, message: 'empty or overlong volume entry' }),
      );
    services.push({
      name,
      image,
      builds,
      ports: ports.map(portText),
      volumes: volumes.map(volumeText),
    });
  }
  issues.push(...reservedNameIssues(doc));
  const unknown = judgeCompose(doc).unknownKeys.slice(0, 20);
  for (const path of unknown) issues.push({ path, message: 'is not a Compose key' });
  const reported = new Set(issues.map((i) => i.path));
  for (const issue of schemaIssues(doc)) if (!reported.has(issue.path)) issues.push(issue);
  return issues.length
    ? { ok: false, issues: issues.slice(0, 20) }
    : { ok: true, summary: { services, document: doc, unset: read.unset } };
}

export const NO_BUILD_CONTEXT =
  'The compose file builds images, and the deployment brings no build context';

/**
 * The services that build their image (`build:` without `image:`), each an issue for a
 * deployment that brings no build context to build them from.
 */
export function unbuildableIssues(summary: ComposeSummary): FieldIssue[] {
  return summary.services
    .filter((s) => s.image === null)
    .map((s) => ({
      path: `compose.services.${s.name}.build`,
      message:
        'builds its image (build: without image:): deploy it with its build context (contextUploadId on POST /api/v1/deploy/compose; slipway deploy --build-context DIR)',
    }));
}

/** Compose allows short forms or long-form maps for ports and volumes; both are summarised. */
function listOf(
  value: unknown,
  path: string,
  issues: FieldIssue[],
): (string | Record<string, unknown>)[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    issues.push({ path, message: 'must be a list' });
    return [];
  }
  const entries: (string | Record<string, unknown>)[] = [];
  for (const entry of value as unknown[]) {
    if (typeof entry === 'string' || typeof entry === 'number') entries.push(String(entry));
    else if (isMap(entry)) entries.push(entry);
    else issues.push({ path, message: 'entries are strings or mappings' });
  }
  return entries;
}

/** A volume entry in the short syntax, for summaries (`source:target`). */
function volumeText(entry: string | Record<string, unknown>): string {
  if (typeof entry === 'string') return entry;
  const parts = [entry.source, entry.target].filter((v) => typeof v === 'string');
  return parts.length ? parts.join(':') : JSON.stringify(entry);
}
