import { badRequest } from '../common/app-error.js';
import { validateCompose } from './compose.js';

/** The named volumes a compose file declares (its top-level `volumes`), or null if unreadable. */
export function namedVolumes(compose: string): string[] | null {
  const read = validateCompose(compose);
  if (!read.ok) return null;
  const volumes = read.summary.document.volumes;
  return volumes && typeof volumes === 'object' && !Array.isArray(volumes)
    ? Object.keys(volumes)
    : [];
}

/** Refuses a volume the service's compose file does not declare (BAD_REQUEST at `path`). */
export function assertNamedVolume(compose: string, volume: string, path: string): void {
  const names = namedVolumes(compose);
  if (names && names.includes(volume)) return;
  throw badRequest(`the compose file declares no volume ${volume}`, [
    { path, message: names?.length ? `one of: ${names.join(', ')}` : 'it declares no volumes' },
  ]);
}
