import type { ComposeCapability, ComposeViolation } from './compose-capabilities.js';
import { hostPathCapabilities, interpolated } from './host-paths.js';

type Map = Record<string, unknown>;

const isMap = (v: unknown): v is Map => v !== null && typeof v === 'object' && !Array.isArray(v);
const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);

/** Docker's default capability set: adding one of these changes nothing. */
const DEFAULT_CAPS = new Set([
  'CHOWN',
  'DAC_OVERRIDE',
  'FSETID',
  'FOWNER',
  'MKNOD',
  'NET_RAW',
  'SETGID',
  'SETUID',
  'SETFCAP',
  'SETPCAP',
  'NET_BIND_SERVICE',
  'SYS_CHROOT',
  'KILL',
  'AUDIT_WRITE',
]);

const NAMESPACES: [string, ComposeCapability][] = [
  ['network_mode', 'hostNetwork'],
  ['pid', 'hostPid'],
  ['ipc', 'hostIpc'],
  ['uts', 'hostUts'],
  ['userns_mode', 'hostUserns'],
  ['cgroup', 'hostCgroup'],
];

const UNCONFINED = /^(seccomp|apparmor|systempaths)[:=]unconfined$|^label[:=]disable$/i;

/**
 * YAML merge keys (`<<: *base`) as compose applies them: the mapping's own keys win. Compose
 * honours them; the parser leaves them as a `<<` key, so the check resolves them itself.
 */
function merged(value: unknown, depth = 0): unknown {
  if (!isMap(value) || depth > 32) return value;
  const bases = listOf(value['<<']).filter(isMap);
  const own = Object.fromEntries(Object.entries(value).filter(([k]) => k !== '<<'));
  const base = Object.assign({}, ...bases.reverse().map((b) => merged(b, depth + 1) as Map));
  return { ...base, ...own };
}

class Findings {
  readonly list: ComposeViolation[] = [];
  constructor(private readonly extraSensitive: readonly string[]) {}

  add(capability: ComposeCapability, path: string, message: string): void {
    this.list.push({ capability, path, message });
  }

  hostPath(raw: unknown, path: string): void {
    if (typeof raw !== 'string') return;
    for (const capability of hostPathCapabilities(raw, this.extraSensitive))
      this.add(capability, path, `mounts or reads the host path ${JSON.stringify(raw)}`);
  }
}

/** `src:dst[:mode]`: the host side, when it is a path rather than a named volume. */
function shortVolumeSource(entry: string): string | null {
  const parts = entry.split(':');
  if (parts.length < 2) return null;
  const source = parts[0];
  return /^[/.~]/.test(source) || interpolated(source) ? source : null;
}

function checkVolumes(volumes: unknown, at: string, f: Findings): void {
  listOf(volumes).forEach((raw, i) => {
    const path = `${at}.volumes[${i}]`;
    if (typeof raw === 'string') f.hostPath(shortVolumeSource(raw), path);
    else if (isMap(raw)) {
      const source = raw.source;
      const bind = raw.type === 'bind' || (typeof source === 'string' && /^[/.~$]/.test(source));
      if (bind || interpolated(String(raw.type ?? ''))) f.hostPath(source, path);
    }
  });
}

function checkService(raw: unknown, at: string, f: Findings): void {
  const s = merged(raw);
  if (!isMap(s)) return;
  const p = s.privileged;
  if (p !== undefined && p !== null && p !== false && String(p).toLowerCase() !== 'false')
    f.add('privileged', `${at}.privileged`, 'runs privileged: root on the host');
  for (const [key, capability] of NAMESPACES) {
    const v = s[key];
    if (typeof v === 'string' && (v.trim().toLowerCase() === 'host' || interpolated(v)))
      f.add(capability, `${at}.${key}`, `shares the host's namespace (${key}: ${v})`);
  }
  listOf(s.cap_add).forEach((cap, i) => {
    const name = String(cap).toUpperCase().replace(/^CAP_/, '');
    if (!DEFAULT_CAPS.has(name))
      f.add('capabilities', `${at}.cap_add[${i}]`, `adds the capability ${String(cap)}`);
  });
  for (const key of ['devices', 'device_cgroup_rules']) {
    if (listOf(s[key]).length > 0) f.add('devices', `${at}.${key}`, 'gives access to host devices');
  }
  listOf(s.security_opt).forEach((opt, i) => {
    const text = String(opt);
    if (UNCONFINED.test(text.trim()) || interpolated(text))
      f.add('unconfined', `${at}.security_opt[${i}]`, `turns confinement off (${text})`);
  });
  checkVolumes(s.volumes, at, f);
  listOf(s.env_file).forEach((e, i) => f.hostPath(isMap(e) ? e.path : e, `${at}.env_file[${i}]`));
  const build = s.build;
  f.hostPath(isMap(build) ? build.context : build, `${at}.build`);
  if (isMap(s.extends) && s.extends.file !== undefined)
    f.add('composeFiles', `${at}.extends.file`, 'extends a service from another compose file');
}

/** Top-level definitions that reach the host: bind-backed volumes, file secrets and configs. */
function checkTopLevel(doc: Map, f: Findings): void {
  for (const [name, raw] of Object.entries(isMap(doc.volumes) ? doc.volumes : {})) {
    const v = merged(raw);
    if (isMap(v) && isMap(v.driver_opts))
      f.hostPath(v.driver_opts.device, `compose.volumes.${name}.driver_opts.device`);
  }
  for (const kind of ['secrets', 'configs']) {
    const defs = doc[kind];
    for (const [name, raw] of Object.entries(isMap(defs) ? defs : {})) {
      if (isMap(raw)) f.hostPath(raw.file, `compose.${kind}.${name}.file`);
    }
  }
  for (const [name, raw] of Object.entries(isMap(doc.networks) ? doc.networks : {})) {
    const n = merged(raw);
    if (isMap(n) && n.external && String(n.name ?? name).toLowerCase() === 'host')
      f.add('hostNetwork', `compose.networks.${name}`, "attaches to the host's network");
  }
  if (doc.include !== undefined)
    f.add('composeFiles', 'compose.include', 'includes other compose files');
}

/**
 * Everything a parsed compose document asks of the host that the compose policy guards, with
 * where. A pure function: no I/O, the same answer for the same document.
 */
export function composeViolations(
  document: unknown,
  extraSensitive: readonly string[] = [],
): ComposeViolation[] {
  const f = new Findings(extraSensitive);
  if (!isMap(document)) return f.list;
  const services = isMap(document.services) ? document.services : {};
  for (const [name, raw] of Object.entries(services))
    checkService(raw, `compose.services.${name}`, f);
  checkTopLevel(document, f);
  return f.list;
}

/** The violations a server's policy does not allow. */
export function refusedViolations(
  violations: ComposeViolation[],
  allow: readonly string[],
): ComposeViolation[] {
  return violations.filter((v) => !allow.includes(v.capability));
}
