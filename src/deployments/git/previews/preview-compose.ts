import { stringify } from 'yaml';
import type { PreviewSettings } from '../../../events/git-sources.events.js';
import { readComposeDocument } from '../../compose.js';

type Json = Record<string, unknown>;
const isMap = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The compose definition a preview runs, from the service's: a preview is reached through the
 * edge proxy only, so no service publishes ports on the host (they would collide with the
 * service's own), none keeps a fixed container name, and each container gets the previews'
 * memory and CPU limits when the source sets them. Merge keys and anchors are resolved (as
 * Compose would), so the result is the normalized document, written out again. Null when the
 * definition cannot be read (it was checked when it was recorded, so only a limit changed).
 */
export function previewCompose(
  compose: string,
  limits: Pick<PreviewSettings, 'memoryMb' | 'cpus'>,
): string | null {
  // Not interpolated: the preview's variables fill it in when it runs, as for any service.
  const read = readComposeDocument(compose, null);
  if (!read.ok || !isMap(read.document.services)) return null;
  const services: Json = {};
  for (const [name, definition] of Object.entries(read.document.services)) {
    if (!isMap(definition)) return null;
    const { ports: _ports, container_name: _name, ...kept } = definition;
    services[name] = {
      ...kept,
      ...(limits.memoryMb !== null ? { mem_limit: `${limits.memoryMb}m` } : {}),
      ...(limits.cpus !== null ? { cpus: limits.cpus } : {}),
    };
  }
  return stringify({ ...read.document, services }, { aliasDuplicateObjects: false });
}
