import { Findings, isMap, isSet, type ComposeMap } from './findings.js';
import { interpolated } from './host-paths.js';
import { judgeEach, judgeKeys, type KeyTable } from './key-table.js';
import { SERVICE_KEYS } from './service-keys.js';

/**
 * `external` (or the legacy `external: {name}`) and an explicit `name` reach a network or
 * volume that exists outside this project: another project's, or the host's.
 */
function foreignName(definition: ComposeMap, key: string): string | null {
  const external = definition.external;
  if (isMap(external)) return String(external.name ?? definition.name ?? key);
  if (isSet(external) || definition.name !== undefined) return String(definition.name ?? key);
  return null;
}

/** Network drivers that put a container on the server's own network. */
const HOST_DRIVERS = new Set(['host', 'macvlan', 'ipvlan']);

/** Driver options that pick a host interface or an existing bridge. */
const HOST_INTERFACE_OPTION = /(^|\.)(parent|bridge\.name)$/;

const NETWORK_KEYS: KeyTable = {
  name: 'free',
  driver: (value, path, f) => {
    const driver = String(value ?? '').toLowerCase();
    if (HOST_DRIVERS.has(driver) || interpolated(driver))
      f.add('hostNetwork', path, `attaches to the server's own network (driver: ${driver})`);
  },
  driver_opts: (value, path, f) => {
    for (const key of Object.keys(isMap(value) ? value : {}).filter((k) =>
      HOST_INTERFACE_OPTION.test(k),
    ))
      f.add('hostNetwork', `${path}.${key}`, "names one of the server's interfaces or bridges");
  },
  ipam: 'free',
  external: 'free',
  internal: 'free',
  enable_ipv4: 'free',
  enable_ipv6: 'free',
  attachable: 'free',
  labels: 'free',
};

/** Volume driver options of the local driver that mount nothing the server reaches itself. */
const LOCAL_MOUNT_TYPES = new Set(['', 'none', 'tmpfs']);

const VOLUME_KEYS: KeyTable = {
  name: 'free',
  // A plugin driver mounts whatever it is configured to, as the server.
  driver: (value, path, f) => {
    const driver = String(value ?? '');
    if (driver !== '' && driver !== 'local')
      f.add('hostMounts', path, `mounts through the volume plugin ${JSON.stringify(driver)}`);
  },
  driver_opts: (value, path, f) => {
    if (!isMap(value)) return;
    f.hostPath(fromServerRoot(value.device), `${path}.device`);
    // nfs, cifs, ...: the server mounts a remote filesystem with its own address and identity.
    const type = String(value.type ?? '').toLowerCase();
    if (!LOCAL_MOUNT_TYPES.has(type) || interpolated(type))
      f.add(
        'hostMounts',
        `${path}.type`,
        `has the server mount a ${JSON.stringify(type)} filesystem`,
      );
  },
  external: 'free',
  labels: 'free',
};

/**
 * A volume's device as the server mounts it. Compose resolves a relative device against the
 * project only for the local driver's plain `o: bind`; with any other option or driver the engine
 * mounts it as given, relative to its own working directory: the server's root (`.` is `/`).
 */
function fromServerRoot(device: unknown): unknown {
  if (typeof device !== 'string' || device === '' || /^[/~]/.test(device) || interpolated(device))
    return device;
  return `/${device}`;
}

const fileJudge: KeyTable[string] = (value, path, f) => f.hostPath(value, path);

const SECRET_KEYS: KeyTable = {
  name: 'free',
  environment: 'free',
  file: fileJudge,
  external: 'free',
  labels: 'free',
  driver: 'free',
  driver_opts: 'free',
  template_driver: 'free',
};

const CONFIG_KEYS: KeyTable = {
  name: 'free',
  content: 'free',
  environment: 'free',
  file: fileJudge,
  external: 'free',
  labels: 'free',
  template_driver: 'free',
};

function judgeNetworks(value: unknown, path: string, f: Findings): void {
  judgeEach(value, NETWORK_KEYS, path, f);
  for (const [key, definition] of Object.entries(isMap(value) ? value : {})) {
    const name = isMap(definition) ? foreignName(definition, key) : null;
    if (name === null) continue;
    if (name.trim().toLowerCase() === 'host' || interpolated(name))
      f.add('hostNetwork', `${path}.${key}`, "attaches to the host's network");
    if (name.trim().toLowerCase() !== 'host')
      f.add(
        'otherContainers',
        `${path}.${key}`,
        `joins the existing network ${JSON.stringify(name)}`,
      );
  }
}

/** Named volumes; an external or explicitly named one may hold another project's data. */
function judgeVolumes(value: unknown, path: string, f: Findings): void {
  judgeEach(value, VOLUME_KEYS, path, f);
  for (const [key, definition] of Object.entries(isMap(value) ? value : {})) {
    const name = isMap(definition) ? foreignName(definition, key) : null;
    if (name !== null)
      f.add(
        'otherContainers',
        `${path}.${key}`,
        `uses the existing volume ${JSON.stringify(name)}`,
      );
  }
}

/** Each service as assembled (readComposeDocument resolved `extends` before judging). */
function judgeServices(value: unknown, path: string, f: Findings): void {
  if (!isMap(value)) return;
  for (const [name, service] of Object.entries(value))
    judgeKeys(service, SERVICE_KEYS, `${path}.${name}`, f);
}

/** The top level of a Compose document. */
export const TOP_LEVEL_KEYS: KeyTable = {
  version: 'free',
  name: 'free',
  include: (_value, path, f) => f.add('composeFiles', path, 'includes other compose files'),
  services: judgeServices,
  models: (_value, path, f) => f.add('providers', path, "runs models on the server's model runner"),
  networks: judgeNetworks,
  volumes: judgeVolumes,
  secrets: (value, path, f) => judgeEach(value, SECRET_KEYS, path, f),
  configs: (value, path, f) => judgeEach(value, CONFIG_KEYS, path, f),
};
