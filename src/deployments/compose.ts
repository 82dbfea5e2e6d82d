import type { FieldIssue } from '../common/app-error.js';
import { parseBoundedYaml, type YamlResult } from '../common/bounded-yaml.js';
import { COMPOSE_LIMITS } from './compose-limits.js';
import { judgeCompose } from './compose-policy/compose-violations.js';
import { parseImageReference } from './image-reference.js';

export interface ComposeSummary {
  services: { name: string; image: string; ports: string[]; volumes: string[] }[];
  /** The parsed document, for checks that read more of it (the compose policy). */
  document: unknown;
}

/** `overLimits`: refused before parsing (size, nodes, depth, aliases; see COMPOSE_LIMITS). */
export type ComposeResult =
  { ok: true; summary: ComposeSummary } | { ok: false; issues: FieldIssue[]; overLimits?: boolean };

const NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$/;
const PORT =
  /^(?:(?:\d{1,3}\.){3}\d{1,3}:)?(?:\d{1,5}(?:-\d{1,5})?:)?\d{1,5}(?:-\d{1,5})?(?:\/(?:tcp|udp))?$/;

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
  return 'must be an image reference with a tag or digest';
}

/**
 * A compose definition as Compose will read it: parsed within COMPOSE_LIMITS, anchors, aliases
 * and `<<` merge keys resolved everywhere. What the policy judges and what the runner ships.
 */
export function readComposeDocument(text: string): YamlResult {
  return parseBoundedYaml(text, 'compose', COMPOSE_LIMITS, { mergeKeys: true });
}

/**
 * Reads a compose definition (readComposeDocument) and checks what Slipway relies on: a
 * `services` map, each with an image reference that pins a tag or digest, well-formed port
 * mappings and volume entries, and no key the Compose specification does not have.
 */
export function validateCompose(text: string): ComposeResult {
  const parsed = readComposeDocument(text);
  if (!parsed.ok) {
    return { ok: false, issues: parsed.issues, overLimits: parsed.cause === 'limits' };
  }
  const doc = parsed.value;
  if (!isMap(doc) || !isMap(doc.services) || Object.keys(doc.services).length === 0) {
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
    const image = raw.image;
    if (typeof image !== 'string' || !parseImageReference(image)) {
      issues.push({ path: `${at}.image`, message: imageProblem(image) });
    }
    const ports = listOf(raw.ports, `${at}.ports`, issues);
    ports
      .filter((p) => !PORT.test(p))
      .forEach((p) =>
        issues.push({ path: `${at}.ports`, message: `"${p}" is not a port mapping` }),
      );
    const volumes = listOf(raw.volumes, `${at}.volumes`, issues);
    volumes
      .filter((v) => v.length === 0 || v.length > 1024)
      .forEach(() =>
        issues.push({ path: `${at}.volumes`, message: 'empty or overlong volume entry' }),
      );
    services.push({ name, image: String(image), ports, volumes });
  }
  for (const path of judgeCompose(doc).unknownKeys.slice(0, 20))
    issues.push({ path, message: 'is not a Compose key' });
  return issues.length ? { ok: false, issues } : { ok: true, summary: { services, document: doc } };
}

function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Compose allows short strings or long-form maps for ports and volumes; both are summarised. */
function listOf(value: unknown, path: string, issues: FieldIssue[]): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    issues.push({ path, message: 'must be a list' });
    return [];
  }
  return value.map((entry) => {
    if (typeof entry === 'string' || typeof entry === 'number') return String(entry);
    if (isMap(entry)) {
      return (
        [entry.published, entry.target ?? entry.source].filter((v) => v !== undefined).join(':') ||
        JSON.stringify(entry)
      );
    }
    issues.push({ path, message: 'entries are strings or mappings' });
    return '';
  });
}
