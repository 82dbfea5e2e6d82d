import { posix } from 'node:path';
import type { ComposeCapability } from './compose-capabilities.js';

/** Container engine sockets: whoever reaches one is root on the host. */
const ENGINE_SOCKETS = [
  '/var/run/docker.sock',
  '/run/docker.sock',
  '/run/containerd/containerd.sock',
  '/var/run/containerd/containerd.sock',
  '/run/podman/podman.sock',
  '/var/run/crio/crio.sock',
  '/run/crio/crio.sock',
];

/** Host paths whose contents are secrets or whose writing is root. */
const SENSITIVE = [
  '/etc',
  '/root',
  '/proc',
  '/sys',
  '/dev',
  '/boot',
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/var/lib/docker',
  '/var/lib/containerd',
  '/var/lib/kubelet',
  '/run/docker',
  '/var/run/docker',
];

/** `a` is `b` or inside it. */
const within = (a: string, b: string) => a === b || a.startsWith(b === '/' ? '/' : `${b}/`);

/** An interpolated value (`${X}`, `$X`; `$$` is a literal dollar): unknown until the server. */
export function interpolated(value: string): boolean {
  return /\$(?!\$)/.test(value.replace(/\$\$/g, ''));
}

/**
 * What a host path gives a container, as capabilities (empty: nothing the policy guards).
 * `extraSensitive` adds paths of this installation (the runner's directory, whose .env files
 * hold every service's secrets).
 */
export function hostPathCapabilities(
  raw: string,
  extraSensitive: readonly string[] = [],
): ComposeCapability[] {
  // A path only known on the server could be any of them.
  if (interpolated(raw)) return ['hostRoot', 'dockerSocket', 'sensitiveHostPaths'];
  if (raw.startsWith('~')) return ['sensitiveHostPaths'];
  if (!raw.startsWith('/')) {
    // Relative to the deployment's own directory: fine unless it climbs out of it.
    return posix.normalize(raw).startsWith('..') ? ['sensitiveHostPaths'] : [];
  }
  const path = posix.normalize(raw).replace(/(.)\/+$/, '$1');
  if (path === '/') return ['hostRoot'];
  // A directory above a sensitive path exposes it too (e.g. /var holds /var/lib/docker).
  const touches = (p: string) => within(path, p) || within(p, path);
  const found: ComposeCapability[] = [];
  if (ENGINE_SOCKETS.some(touches)) found.push('dockerSocket');
  if ([...SENSITIVE, ...extraSensitive].some(touches)) found.push('sensitiveHostPaths');
  return found;
}
