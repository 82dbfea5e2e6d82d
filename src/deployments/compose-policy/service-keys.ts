import { judgeBuild } from './build-judges.js';
import { Findings, isMap, isSet, listOf } from './findings.js';
import { interpolated } from './host-paths.js';
import { judgeKeys, type KeyTable } from './key-table.js';
import { judgeFiles, judgeVolumes, judgeVolumesFrom } from './mount-judges.js';
import {
  judgeCgroup,
  judgeCgroupParent,
  judgeIpc,
  judgeNetworkMode,
  judgePid,
  judgeUserns,
  judgeUts,
} from './namespace-judges.js';

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

/**
 * `security_opt` entries that keep the engine's confinement: no-new-privileges and SELinux
 * user/role/level labels. Anything else (a seccomp profile file, an AppArmor profile, a label
 * type such as spc_t, `unconfined`) may lift it.
 */
const CONFINED =
  /^(no-new-privileges([:=](true|false))?|label[:=](user|role|level):[^,]*|apparmor[:=]docker-default|seccomp[:=]builtin)$/i;

/** The runtimes every engine ships; another one is a program the host runs containers with. */
const DEFAULT_RUNTIMES = new Set(['runc', 'io.containerd.runc.v2']);

function judgePrivileged(value: unknown, path: string, f: Findings): void {
  if (isSet(value)) f.add('privileged', path, 'runs privileged: root on the host');
}

function judgeCapAdd(value: unknown, path: string, f: Findings): void {
  listOf(value).forEach((cap, i) => {
    const name = String(cap).toUpperCase().replace(/^CAP_/, '');
    if (!DEFAULT_CAPS.has(name))
      f.add('capabilities', `${path}[${i}]`, `adds the capability ${String(cap)}`);
  });
}

function judgeDevices(value: unknown, path: string, f: Findings): void {
  if (listOf(value).length > 0 || isMap(value))
    f.add('devices', path, 'gives access to host devices');
}

function judgeSecurityOpt(value: unknown, path: string, f: Findings): void {
  listOf(value).forEach((opt, i) => {
    const text = String(opt).trim();
    if (!CONFINED.test(text) || interpolated(text))
      f.add('unconfined', `${path}[${i}]`, `may turn confinement off (${text})`);
  });
}

/** Only `deploy.resources.reservations.devices` reaches the host: devices such as GPUs. */
function judgeDeploy(value: unknown, path: string, f: Findings): void {
  const resources = isMap(value) ? value.resources : undefined;
  const reservations = isMap(resources) ? resources.reservations : undefined;
  if (isMap(reservations) && reservations.devices !== undefined)
    judgeDevices(reservations.devices, `${path}.resources.reservations.devices`, f);
}

const HOOK_KEYS: KeyTable = {
  command: 'free',
  user: 'free',
  privileged: judgePrivileged,
  working_dir: 'free',
  environment: 'free',
};

function judgeHooks(value: unknown, path: string, f: Findings): void {
  listOf(value).forEach((hook, i) => judgeKeys(hook, HOOK_KEYS, `${path}[${i}]`, f));
}

const EXTENDS_KEYS: KeyTable = {
  service: 'free',
  file: (_value, path, f) =>
    f.add('composeFiles', path, 'extends a service from another compose file'),
};

/**
 * Every key of a service in the Compose specification. `free` keys stay inside an ordinary
 * container; the others are judged.
 */
/** Drivers that keep logs on the server itself; the others send them out from its network. */
const LOCAL_LOG_DRIVERS = new Set(['json-file', 'local', 'journald', 'none']);

function judgeLogging(value: unknown, path: string, f: Findings): void {
  if (!isMap(value) || value.driver === undefined || value.driver === null) return;
  const driver = String(value.driver);
  if (!LOCAL_LOG_DRIVERS.has(driver) || interpolated(driver))
    f.add(
      'logDrivers',
      `${path}.driver`,
      `has the server's engine send logs with ${JSON.stringify(driver)}, from its own network`,
    );
}

export const SERVICE_KEYS: KeyTable = {
  annotations: 'free',
  attach: 'free',
  blkio_config: 'free',
  build: judgeBuild,
  cap_add: judgeCapAdd,
  cap_drop: 'free',
  cgroup: judgeCgroup,
  cgroup_parent: judgeCgroupParent,
  command: 'free',
  configs: 'free',
  container_name: 'free',
  cpu_count: 'free',
  cpu_percent: 'free',
  cpu_period: 'free',
  cpu_quota: 'free',
  cpu_rt_period: 'free',
  cpu_rt_runtime: 'free',
  cpu_shares: 'free',
  cpus: 'free',
  cpuset: 'free',
  credential_spec: (value, path, f) => {
    if (isMap(value) && (value.file !== undefined || value.registry !== undefined))
      f.add('sensitiveHostPaths', path, "reads a credential spec from the host's files");
  },
  depends_on: 'free',
  deploy: judgeDeploy,
  // Used by `compose watch` only, which Slipway never runs.
  develop: 'free',
  device_cgroup_rules: judgeDevices,
  devices: judgeDevices,
  dns: 'free',
  dns_opt: 'free',
  dns_search: 'free',
  domainname: 'free',
  entrypoint: 'free',
  env_file: judgeFiles,
  environment: 'free',
  expose: 'free',
  extends: (value, path, f) => {
    if (isMap(value)) judgeKeys(value, EXTENDS_KEYS, path, f);
  },
  external_links: (value, path, f) => {
    if (listOf(value).length > 0)
      f.add('otherContainers', path, 'links to containers outside the project');
  },
  extra_hosts: 'free',
  gpus: judgeDevices,
  group_add: 'free',
  healthcheck: 'free',
  hostname: 'free',
  image: 'free',
  init: 'free',
  ipc: judgeIpc,
  isolation: 'free',
  label_file: judgeFiles,
  labels: 'free',
  links: 'free',
  logging: judgeLogging,
  mac_address: 'free',
  mem_limit: 'free',
  mem_reservation: 'free',
  mem_swappiness: 'free',
  memswap_limit: 'free',
  models: (_value, path, f) => f.add('providers', path, "uses the server's model runner"),
  network_mode: judgeNetworkMode,
  networks: 'free',
  oom_kill_disable: 'free',
  oom_score_adj: 'free',
  pid: judgePid,
  pids_limit: 'free',
  platform: 'free',
  ports: 'free',
  post_start: judgeHooks,
  pre_stop: judgeHooks,
  privileged: judgePrivileged,
  profiles: 'free',
  provider: (_value, path, f) =>
    f.add('providers', path, 'is managed by a provider program on the server'),
  pull_policy: 'free',
  pull_refresh_after: 'free',
  read_only: 'free',
  restart: 'free',
  runtime: (value, path, f) => {
    if (value !== undefined && value !== null && !DEFAULT_RUNTIMES.has(String(value)))
      f.add('runtime', path, `runs under the runtime ${JSON.stringify(value)}`);
  },
  scale: 'free',
  secrets: 'free',
  security_opt: judgeSecurityOpt,
  shm_size: 'free',
  stdin_open: 'free',
  stop_grace_period: 'free',
  stop_signal: 'free',
  storage_opt: 'free',
  sysctls: 'free',
  tmpfs: 'free',
  tty: 'free',
  ulimits: 'free',
  use_api_socket: (value, path, f) => {
    if (isSet(value)) f.add('dockerSocket', path, "mounts the engine's API socket");
  },
  user: 'free',
  userns_mode: judgeUserns,
  uts: judgeUts,
  volumes: judgeVolumes,
  volumes_from: judgeVolumesFrom,
  working_dir: 'free',
};
