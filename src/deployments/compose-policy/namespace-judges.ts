import type { ComposeCapability } from './compose-capabilities.js';
import type { Findings } from './findings.js';
import { interpolated } from './host-paths.js';

/**
 * A namespace setting (`network_mode`, `pid`, `ipc`, ...): `host` shares the host's, and
 * `container:<name>` joins a container outside the project. `free` lists the other values that
 * stay inside the project; anything else (unknown, or filled in on the server) counts as both.
 */
function namespaceJudge(hostCapability: ComposeCapability, free: readonly string[]) {
  return (value: unknown, path: string, f: Findings): void => {
    if (value === undefined || value === null) return;
    const text = String(value).trim();
    const key = path.slice(path.lastIndexOf('.') + 1);
    const lower = text.toLowerCase();
    if (free.includes(lower) || (lower.startsWith('service:') && !interpolated(text))) return;
    const host = lower === 'host';
    const container = lower.startsWith('container:');
    if (host || !container)
      f.add(hostCapability, path, `shares the host's namespace (${key}: ${text})`);
    if (container || !host)
      f.add('otherContainers', path, `joins a container outside the project (${key}: ${text})`);
  };
}

/** `network_mode` outside this list names a network: one of another project, or the host's. */
export const judgeNetworkMode = namespaceJudge('hostNetwork', ['', 'none', 'bridge', 'default']);
export const judgePid = namespaceJudge('hostPid', ['', 'private']);
export const judgeIpc = namespaceJudge('hostIpc', ['', 'none', 'private', 'shareable']);
export const judgeUts = namespaceJudge('hostUts', ['', 'private']);
export const judgeUserns = namespaceJudge('hostUserns', ['', 'private']);
export const judgeCgroup = namespaceJudge('hostCgroup', ['', 'private']);

export function judgeCgroupParent(value: unknown, path: string, f: Findings): void {
  if (value !== undefined && value !== null && String(value) !== '')
    f.add('hostCgroup', path, `places the container in the host's cgroup ${JSON.stringify(value)}`);
}
