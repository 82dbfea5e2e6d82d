import { Findings, isMap, listOf } from './findings.js';
import { interpolated } from './host-paths.js';
import { judgeKeys, type KeyTable } from './key-table.js';

/** `src:dst[:mode]`: the host side when it is a path (or filled in on the server), else null. */
function shortVolumeSource(entry: string): string | null {
  // Filled in on the server, the whole entry could become `/:/host`.
  if (interpolated(entry)) return entry;
  const parts = entry.split(':');
  if (parts.length < 2) return null;
  const source = parts[0];
  return /^[/.~]/.test(source) ? source : null;
}

/** The long syntax of a service's mount; `source` is judged by the mount's `type`. */
const MOUNT_KEYS: KeyTable = {
  type: 'free',
  source: 'free',
  target: 'free',
  read_only: 'free',
  consistency: 'free',
  bind: 'free',
  volume: 'free',
  tmpfs: 'free',
  image: 'free',
};

function judgeMount(mount: Record<string, unknown>, path: string, f: Findings): void {
  judgeKeys(mount, MOUNT_KEYS, path, f);
  const type = String(mount.type ?? '');
  const source = mount.source;
  if (type === 'npipe') {
    // A host's named pipe: on Windows servers, the engine's API is one.
    f.add('dockerSocket', path, `mounts the host's named pipe ${JSON.stringify(source)}`);
    return;
  }
  const pathLike = typeof source === 'string' && (/^[/.~]/.test(source) || interpolated(source));
  if (type === 'bind' || interpolated(type) || pathLike) f.hostPath(source, path);
}

export function judgeVolumes(value: unknown, at: string, f: Findings): void {
  listOf(value).forEach((raw, i) => {
    const path = `${at}[${i}]`;
    if (typeof raw === 'string') f.hostPath(shortVolumeSource(raw), path);
    else if (isMap(raw)) judgeMount(raw, path, f);
  });
}

/** `volumes_from`: a service of the project is fine; `container:<name>` is someone else's. */
export function judgeVolumesFrom(value: unknown, at: string, f: Findings): void {
  listOf(value).forEach((raw, i) => {
    const text = String(raw);
    if (/^container:/i.test(text.trim()) || interpolated(text))
      f.add('otherContainers', `${at}[${i}]`, `mounts the volumes of ${JSON.stringify(text)}`);
  });
}

/** `env_file` and `label_file`: files read on the server, as strings or `{path}` entries. */
export function judgeFiles(value: unknown, at: string, f: Findings): void {
  listOf(value).forEach((raw, i) => f.hostPath(isMap(raw) ? raw.path : raw, `${at}[${i}]`));
}
