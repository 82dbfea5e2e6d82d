import type { Findings } from './findings.js';
import { isMap, isSet, listOf } from './findings.js';
import { interpolated } from './host-paths.js';
import { judgeKeys, type KeyTable } from './key-table.js';

/** Additional contexts that are not paths on the server (an image, a stage, a service, a URL). */
const NOT_A_PATH = /^(docker-image|service|target|https?|git):|^git@/i;

/** `oci-layout://<path>` names a directory on the server. */
const OCI_LAYOUT = /^oci-layout:\/\//i;

function judgeAdditionalContexts(value: unknown, path: string, f: Findings): void {
  // A map of name → source, or a list of `name=source`.
  const sources = isMap(value)
    ? Object.entries(value).map(([name, source]) => [name, source] as const)
    : listOf(value).map((entry) => {
        const text = String(entry);
        const at = text.indexOf('=');
        return [text.slice(0, at), text.slice(at + 1)] as const;
      });
  for (const [name, raw] of sources) {
    const source = String(raw);
    if (NOT_A_PATH.test(source) && !interpolated(source)) continue;
    f.hostPath(source.replace(OCI_LAYOUT, ''), `${path}.${name}`);
  }
}

/** `cache_from` / `cache_to`: a `type=local` cache reads or writes a directory on the server. */
function judgeCaches(value: unknown, path: string, f: Findings): void {
  listOf(value).forEach((raw, i) => {
    const fields = new Map(
      String(raw)
        .split(',')
        .map((part) => part.split('=', 2).map((s) => s.trim()) as [string, string]),
    );
    for (const key of ['src', 'dest']) {
      const dir = fields.get(key);
      if (dir !== undefined) f.hostPath(dir.startsWith('/') ? dir : `./${dir}`, `${path}[${i}]`);
    }
    if (interpolated(String(raw))) f.hostPath(String(raw), `${path}[${i}]`);
  });
}

function judgeBuildNetwork(value: unknown, path: string, f: Findings): void {
  const text = String(value ?? '').trim();
  if (['', 'default', 'none', 'bridge'].includes(text.toLowerCase())) return;
  if (text.toLowerCase() === 'host' || interpolated(text))
    f.add('hostNetwork', path, `builds in the host's network (network: ${text})`);
  if (text.toLowerCase() !== 'host')
    f.add('otherContainers', path, `builds in another network (network: ${text})`);
}

/** BuildKit entitlements: `network.host` is the host's network, the others lift confinement. */
function judgeEntitlements(value: unknown, path: string, f: Findings): void {
  listOf(value).forEach((raw, i) => {
    const text = String(raw).trim().toLowerCase();
    if (text === 'network.host')
      f.add('hostNetwork', `${path}[${i}]`, "builds in the host's network");
    else f.add('privileged', `${path}[${i}]`, `builds with the entitlement ${JSON.stringify(raw)}`);
  });
}

/** A Dockerfile named outside its context is read from the server's disk. */
function judgeDockerfile(
  value: unknown,
  path: string,
  f: Findings,
  build: Record<string, unknown>,
) {
  if (typeof value !== 'string') return;
  if (value.startsWith('/') || value.startsWith('~') || interpolated(value))
    f.hostPath(value, path);
  else f.hostPath(`${String(build.context ?? '.')}/${value}`, path);
}

const BUILD_KEYS: KeyTable = {
  context: (value, path, f) => f.hostPath(value, path),
  dockerfile: judgeDockerfile,
  dockerfile_inline: 'free',
  entitlements: judgeEntitlements,
  args: 'free',
  ssh: (value, path, f) => {
    if (listOf(value).length > 0 || isMap(value))
      f.add('sshAgent', path, "gives the build the server's SSH agent or keys");
  },
  labels: 'free',
  cache_from: judgeCaches,
  cache_to: judgeCaches,
  no_cache: 'free',
  additional_contexts: judgeAdditionalContexts,
  network: judgeBuildNetwork,
  provenance: 'free',
  sbom: 'free',
  pull: 'free',
  target: 'free',
  shm_size: 'free',
  extra_hosts: 'free',
  isolation: 'free',
  privileged: (value, path, f) => {
    if (isSet(value)) f.add('privileged', path, 'builds privileged: root on the host');
  },
  // References to the top-level secrets, judged there.
  secrets: 'free',
  tags: 'free',
  ulimits: 'free',
  platforms: 'free',
};

/** `build`: a context path, or the long form whose every key is judged. */
export function judgeBuild(value: unknown, path: string, f: Findings): void {
  if (isMap(value)) judgeKeys(value, BUILD_KEYS, path, f);
  else f.hostPath(value, path);
}
