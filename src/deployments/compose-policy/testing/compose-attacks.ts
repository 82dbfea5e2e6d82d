import type { ComposeCapability } from '../compose-capabilities.js';

/** A compose document that asks its server for something, and what it asks for. */
export interface ComposeAttack {
  name: string;
  compose: string;
  asks: ComposeCapability[];
}

const service = (body: string) =>
  `services:\n  api:\n    image: ghcr.io/acme/api:1\n${body
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')}\n`;

/**
 * Ways to reach the host through a compose document, written as attackers write them: through
 * merge keys, aliases, legacy syntax and the less-read corners of the specification. Each must
 * be found whatever the spelling; Compose's own reading of each (`docker compose config`) asks
 * for no more than the policy finds.
 */
export const COMPOSE_ATTACKS: ComposeAttack[] = [
  {
    name: 'a bind of / through a merge key inside a volume entry',
    compose: `x-b: &b {type: bind, source: /}\n${service('volumes:\n  - <<: *b\n    target: /host')}`,
    asks: ['hostRoot'],
  },
  {
    name: 'the engine socket through a merge key inside a volume entry',
    compose: `x-b: &b {type: bind, source: /var/run/docker.sock}\n${service('volumes:\n  - <<: *b\n    target: /s')}`,
    asks: ['dockerSocket'],
  },
  {
    name: 'the legacy external host network',
    compose: `${service('networks: [n]')}networks:\n  n:\n    external:\n      name: host\n`,
    asks: ['hostNetwork'],
  },
  {
    name: 'build.additional_contexts on a host path',
    compose: service('build:\n  context: .\n  additional_contexts:\n    root: /etc'),
    asks: ['sensitiveHostPaths'],
  },
  {
    name: "build.ssh with the server's agent",
    compose: service('build:\n  context: .\n  ssh: [default]'),
    asks: ['sshAgent'],
  },
  {
    name: 'build.ssh with a key file',
    compose: service('build:\n  context: .\n  ssh: ["id=/root/.ssh/id_ed25519"]'),
    asks: ['sshAgent'],
  },
  {
    name: 'build.network: host',
    compose: service('build:\n  context: .\n  network: host'),
    asks: ['hostNetwork'],
  },
  {
    name: 'build.privileged',
    compose: service('build:\n  context: .\n  privileged: true'),
    asks: ['privileged'],
  },
  {
    name: 'a merge key inside an env_file entry',
    compose: `x-e: &e {path: /etc/shadow}\n${service('env_file:\n  - <<: *e\n    required: true')}`,
    asks: ['sensitiveHostPaths'],
  },
  {
    name: 'a merge key inside a top-level secret',
    compose: `x-s: &s {file: /etc/shadow}\n${service('secrets: [s]')}secrets:\n  s:\n    <<: *s\n`,
    asks: ['sensitiveHostPaths'],
  },
  {
    name: "a merge key inside a volume's driver_opts",
    compose: `x-o: &o {type: none, o: bind, device: /}\n${service('volumes: ["rootfs:/host"]')}volumes:\n  rootfs:\n    driver_opts:\n      <<: *o\n`,
    asks: ['hostRoot'],
  },
  {
    name: 'a log driver that sends from the server to any address',
    compose: service(
      'logging:\n  driver: gelf\n  options: {gelf-address: "udp://169.254.169.254:12201"}',
    ),
    asks: ['logDrivers'],
  },
  {
    name: "a relative volume device, which the engine mounts from the server's root",
    compose: `${service('volumes: ["root:/host"]')}volumes:\n  root:\n    driver_opts: {type: none, o: rbind, device: "."}\n`,
    asks: ['hostRoot'],
  },
  {
    name: 'a relative volume device below the server root',
    compose: `${service('volumes: ["etc:/host"]')}volumes:\n  etc:\n    driver_opts: {type: none, o: "bind,ro", device: etc}\n`,
    asks: ['sensitiveHostPaths'],
  },
  {
    name: 'a merge key inside build',
    compose: `x-b: &b {context: /}\n${service('build:\n  <<: *b\n  dockerfile: Dockerfile')}`,
    asks: ['hostRoot'],
  },
  {
    name: 'a merge key inside extends',
    compose: `x-x: &x {file: /etc/compose.yaml, service: base}\n${service('extends:\n  <<: *x')}`,
    asks: ['composeFiles'],
  },
  {
    name: 'volumes_from another container',
    compose: service('volumes_from: ["container:slipway"]'),
    asks: ['otherContainers'],
  },
  {
    name: 'network_mode of another container',
    compose: service('network_mode: "container:slipway"'),
    asks: ['otherContainers'],
  },
  {
    name: 'pid of another container',
    compose: service('pid: "container:slipway"'),
    asks: ['otherContainers'],
  },
  {
    name: 'ipc of another container',
    compose: service('ipc: "container:slipway"'),
    asks: ['otherContainers'],
  },
  {
    name: 'a seccomp profile from a file',
    compose: service('security_opt: ["seccomp=./allow-all.json"]'),
    asks: ['unconfined'],
  },
  {
    name: "the engine's API socket by use_api_socket",
    compose: service('use_api_socket: true'),
    asks: ['dockerSocket'],
  },
  {
    name: 'a merged service that is privileged',
    compose: `x-p: &p {privileged: true}\nservices:\n  api:\n    <<: *p\n    image: ghcr.io/acme/api:1\n`,
    asks: ['privileged'],
  },
  {
    name: 'an extended service of the same file that binds /',
    compose:
      'services:\n  base:\n    image: a:1\n    profiles: [never]\n    volumes: [{type: bind, source: /, target: /host}]\n  api:\n    image: a:1\n    extends: base\n',
    asks: ['hostRoot'],
  },
  {
    name: 'an external volume of another project',
    compose: `${service('volumes: ["data:/d"]')}volumes:\n  data:\n    external: true\n    name: slipway_data\n`,
    asks: ['otherContainers'],
  },
  {
    name: 'a macvlan network on the host interface',
    compose: `${service('networks: [lan]')}networks:\n  lan:\n    driver: macvlan\n    driver_opts: {parent: eth0}\n`,
    asks: ['hostNetwork'],
  },
  {
    name: 'GPU devices reserved through deploy',
    compose: service(
      'deploy:\n  resources:\n    reservations:\n      devices: [{driver: nvidia, count: all, capabilities: [gpu]}]',
    ),
    asks: ['devices'],
  },
  {
    name: 'a privileged post_start hook',
    compose: service('post_start:\n  - command: id\n    privileged: true'),
    asks: ['privileged'],
  },
  {
    name: 'an NFS export mounted by the server with its own address',
    compose: `${service('volumes: ["share:/share"]')}volumes:\n  share:\n    driver_opts: {type: nfs, o: "addr=10.0.0.5,rw", device: ":/exports/backups"}\n`,
    asks: ['hostMounts'],
  },
  {
    name: 'a whole short volume filled in on the server',
    compose: service('volumes: ["${MOUNT}"]'),
    asks: ['hostRoot', 'dockerSocket', 'sensitiveHostPaths'],
  },
];
