import { describe, expect, it } from '@jest/globals';
import { readComposeDocument } from '../compose.js';
import { composeViolations, refusedViolations } from './compose-violations.js';

/**
 * The document as Compose reads it (merge keys and extends resolved), as the policy receives
 * it; references left as written, as a secret's is when judged.
 */
export function read(yaml: string): unknown {
  const parsed = readComposeDocument(yaml, null);
  if (!parsed.ok) throw new Error(parsed.issues.map((i) => i.message).join('; '));
  return parsed.document;
}

/** Given a compose file, when checked, then these capabilities (path → capability). */
function given(yaml: string, extraSensitive: string[] = []) {
  const violations = composeViolations(read(yaml), extraSensitive);
  return {
    then: (expected: [string, string][]) =>
      expect(violations.map((v) => [v.path, v.capability])).toEqual(expected),
    violations,
  };
}
const service = (body: string) =>
  `services:\n  api:\n    image: ghcr.io/acme/api:1\n${body
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')}\n`;

describe('compose policy: what a compose file asks of its host', () => {
  it('an ordinary service asks for nothing', () => {
    given(
      service(
        'ports: ["8080:80"]\nvolumes: ["data:/var/lib/data", "./conf:/conf:ro", "/srv/app/uploads:/uploads"]\ncap_add: [NET_BIND_SERVICE]\nnetwork_mode: bridge',
      ),
    ).then([]);
  });

  it.each([
    ['privileged: true', 'compose.services.api.privileged', 'privileged'],
    ['privileged: "true"', 'compose.services.api.privileged', 'privileged'],
    ['network_mode: host', 'compose.services.api.network_mode', 'hostNetwork'],
    ['pid: host', 'compose.services.api.pid', 'hostPid'],
    ['ipc: host', 'compose.services.api.ipc', 'hostIpc'],
    ['uts: host', 'compose.services.api.uts', 'hostUts'],
    ['userns_mode: host', 'compose.services.api.userns_mode', 'hostUserns'],
    ['cgroup: host', 'compose.services.api.cgroup', 'hostCgroup'],
    ['cap_add: [SYS_ADMIN]', 'compose.services.api.cap_add[0]', 'capabilities'],
    ['cap_add: [ALL]', 'compose.services.api.cap_add[0]', 'capabilities'],
    ['cap_add: [cap_sys_module]', 'compose.services.api.cap_add[0]', 'capabilities'],
    ['devices: ["/dev/sda:/dev/sda"]', 'compose.services.api.devices', 'devices'],
    ['security_opt: ["seccomp:unconfined"]', 'compose.services.api.security_opt[0]', 'unconfined'],
    ['security_opt: ["apparmor=unconfined"]', 'compose.services.api.security_opt[0]', 'unconfined'],
    ['security_opt: ["label:disable"]', 'compose.services.api.security_opt[0]', 'unconfined'],
    ['volumes: ["/:/host"]', 'compose.services.api.volumes[0]', 'hostRoot'],
    [
      'volumes: ["/var/run/docker.sock:/var/run/docker.sock"]',
      'compose.services.api.volumes[0]',
      'dockerSocket',
    ],
    ['volumes: ["/run/docker.sock:/d.sock:ro"]', 'compose.services.api.volumes[0]', 'dockerSocket'],
    ['volumes: ["/etc:/host-etc"]', 'compose.services.api.volumes[0]', 'sensitiveHostPaths'],
    ['volumes: ["/root/.ssh:/keys"]', 'compose.services.api.volumes[0]', 'sensitiveHostPaths'],
    ['volumes: ["/proc:/p"]', 'compose.services.api.volumes[0]', 'sensitiveHostPaths'],
    ['volumes: ["/var/lib/docker:/d"]', 'compose.services.api.volumes[0]', 'sensitiveHostPaths'],
    ['volumes: ["/etc/../etc/shadow:/s"]', 'compose.services.api.volumes[0]', 'sensitiveHostPaths'],
    ['volumes: ["~/.ssh:/s"]', 'compose.services.api.volumes[0]', 'sensitiveHostPaths'],
    ['volumes: ["../../../../etc:/s"]', 'compose.services.api.volumes[0]', 'sensitiveHostPaths'],
    ['env_file: /etc/shadow', 'compose.services.api.env_file[0]', 'sensitiveHostPaths'],
    ['build: /', 'compose.services.api.build', 'hostRoot'],
    [
      'extends: {file: /tmp/other.yaml, service: x}',
      'compose.services.api.extends.file',
      'composeFiles',
    ],
  ])('given `%s`, then %s asks for %s', (body, path, capability) => {
    given(service(body)).then([[path, capability]]);
  });

  it('reads the long volume syntax as well as the short one', () => {
    given(
      service(
        'volumes:\n  - {type: bind, source: /, target: /host}\n  - {type: bind, source: /var/run/docker.sock, target: /s}\n  - {type: volume, source: data, target: /data}',
      ),
    ).then([
      ['compose.services.api.volumes[0]', 'hostRoot'],
      ['compose.services.api.volumes[1]', 'dockerSocket'],
    ]);
  });

  it('sees a directory above the Docker socket or a sensitive path as that path', () => {
    given(service('volumes: ["/var/run:/r", "/var:/v"]')).then([
      ['compose.services.api.volumes[0]', 'dockerSocket'],
      ['compose.services.api.volumes[0]', 'sensitiveHostPaths'],
      ['compose.services.api.volumes[1]', 'dockerSocket'],
      ['compose.services.api.volumes[1]', 'sensitiveHostPaths'],
    ]);
  });

  it('resolves YAML merge keys as compose does', () => {
    given(
      'x-base: &base\n  privileged: true\n  network_mode: host\nservices:\n  api:\n    <<: *base\n    image: a:1\n',
    ).then([
      ['compose.services.api.privileged', 'privileged'],
      ['compose.services.api.network_mode', 'hostNetwork'],
    ]);
  });

  it('treats a value the server fills in (${VAR}) as whatever it could be', () => {
    given(service('privileged: ${PRIV}\nvolumes: ["${ROOT}:/host"]\npid: $PID')).then([
      ['compose.services.api.privileged', 'privileged'],
      ['compose.services.api.volumes[0]', 'hostRoot'],
      ['compose.services.api.volumes[0]', 'dockerSocket'],
      ['compose.services.api.volumes[0]', 'sensitiveHostPaths'],
      ['compose.services.api.pid', 'hostPid'],
      ['compose.services.api.pid', 'otherContainers'],
    ]);
    given(service('volumes: ["./cost$$:/x"]')).then([]);
  });

  it('checks top-level volumes, secrets, configs, networks and includes that reach the host', () => {
    given(
      [
        'services:\n  api:\n    image: a:1',
        'volumes:\n  rootfs:\n    driver_opts: {type: none, o: bind, device: /}',
        'secrets:\n  shadow:\n    file: /etc/shadow',
        'configs:\n  passwd:\n    file: /etc/passwd',
        'networks:\n  hostnet:\n    external: true\n    name: host',
        'include: [/tmp/more.yaml]',
      ].join('\n'),
    ).then([
      ['compose.volumes.rootfs.driver_opts.device', 'hostRoot'],
      ['compose.secrets.shadow.file', 'sensitiveHostPaths'],
      ['compose.configs.passwd.file', 'sensitiveHostPaths'],
      ['compose.networks.hostnet', 'hostNetwork'],
      ['compose.include', 'composeFiles'],
    ]);
  });

  it("counts the runner's own directory as sensitive: it holds every service's .env", () => {
    given(service('volumes: ["/srv/slipway:/all"]'), ['/srv/slipway']).then([
      ['compose.services.api.volumes[0]', 'sensitiveHostPaths'],
    ]);
  });

  it('refuses only what the server policy does not allow', () => {
    const { violations } = given(service('privileged: true\nnetwork_mode: host'));
    expect(refusedViolations(violations, ['privileged']).map((v) => v.capability)).toEqual([
      'hostNetwork',
    ]);
    expect(refusedViolations(violations, ['privileged', 'hostNetwork'])).toEqual([]);
  });
});
