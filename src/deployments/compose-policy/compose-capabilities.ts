/**
 * What a compose file can ask of its server beyond an ordinary container, each a way to root or
 * to the host's secrets. Refused by default; an owner or admin allows them per server.
 */
export const COMPOSE_CAPABILITIES = {
  privileged: '`privileged: true`',
  hostNetwork: "the host's network namespace (`network_mode: host`, an external `host` network)",
  hostPid: "the host's process namespace (`pid: host`)",
  hostIpc: "the host's IPC namespace (`ipc: host`)",
  hostUts: "the host's UTS namespace (`uts: host`)",
  hostUserns: "the host's user namespace (`userns_mode: host`)",
  hostCgroup: "the host's cgroup namespace (`cgroup: host`)",
  capabilities: 'Linux capabilities beyond Docker’s defaults (`cap_add`: SYS_ADMIN, ALL, ...)',
  devices: 'host devices (`devices`, `device_cgroup_rules`)',
  unconfined: 'disabled confinement (`security_opt`: seccomp/apparmor unconfined, label disable)',
  dockerSocket: 'the container engine’s socket (/var/run/docker.sock and the like), i.e. root',
  hostRoot: 'the host’s root directory `/`',
  sensitiveHostPaths:
    'sensitive host paths (/etc, /root, /proc, /sys, /dev, /boot, /usr, /var/lib/docker, the runner’s directory, ...)',
  composeFiles: 'compose files the policy cannot see (`include`, `extends.file`)',
  otherContainers:
    'containers, networks and volumes outside the project (`container:<name>`, `volumes_from` a container, external or explicitly named networks and volumes, `external_links`)',
  runtime: 'a container runtime other than the engine’s default (`runtime`)',
  sshAgent: 'the server’s SSH agent or keys in a build (`build.ssh`)',
  providers: 'programs on the server that run services for Compose (`provider`, `models`)',
  hostMounts:
    'filesystems the server mounts for a volume (`driver_opts.type` nfs, cifs, ...; a volume plugin `driver`)',
  logDrivers:
    'log drivers that send from the server’s own network to any address (`logging.driver` syslog, gelf, fluentd, splunk, ...)',
} as const;

export type ComposeCapability = keyof typeof COMPOSE_CAPABILITIES;

export const COMPOSE_CAPABILITY_NAMES = Object.keys(COMPOSE_CAPABILITIES) as ComposeCapability[];

/** One thing a compose file asks for, where it asks for it. */
export interface ComposeViolation {
  capability: ComposeCapability;
  /** e.g. `compose.services.api.volumes[0]` */
  path: string;
  message: string;
}
