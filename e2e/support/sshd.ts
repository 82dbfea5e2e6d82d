import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLoopbackSshd, type LoopbackSshd } from '../fixtures/loopback-sshd.js';
import { DeploymentRunner } from '../../src/runner/deployment-runner.js';
import type { DockerEngine } from './docker-engine.js';
import { data } from './deployments.js';
import { call } from './identity.js';
import type { TestApp } from './test-app.js';

export type DockerMode = 'success' | 'pull-fail' | 'unhealthy' | 'slow';

export interface TestSshd extends LoopbackSshd {
  /** The fake docker's behaviour (not with a real engine). */
  setMode(mode: DockerMode): void;
  /** Every docker invocation: its argument vector. */
  dockerCalls(): string[][];
}

/**
 * The test sshd listens on loopback, which the server address policy refuses by default: tests
 * that deploy to it allow loopback explicitly, as an operator would for a local target.
 */
export const ALLOW_LOOPBACK = 'allow:loopback';

/**
 * A stand-in for docker, first on the test user's PATH: records its arguments (NUL-separated,
 * so nothing is lost) and prints what docker compose would, per mode.
 */
function fakeDocker(dir: string): string {
  return `#!/bin/sh
for a in "$@"; do printf '%s\\0' "$a"; done >> "${dir}/docker-calls"
printf '\\n' >> "${dir}/docker-calls"
mode=$(cat "${dir}/docker-mode" 2>/dev/null || echo success)
case " $* " in
  *" pull "*)
    if [ "$mode" = pull-fail ]; then echo "Error response from daemon: manifest for ghcr.io/acme/api not found: manifest unknown" >&2; exit 1; fi
    echo " api Pulling"
    if [ "$mode" = slow ]; then echo " api Waiting on a slow registry"; sleep 20; fi
    echo " api Pulled" ;;
  *" up "*) echo " Network app_default  Created"; echo " Container app-api-1  Started" ;;
  *" down "*) echo " Container app-api-1  Removed"; echo " Network app_default  Removed" ;;
  *" ps -q --filter "*) ;;
  *" ps "*)
    if [ "$mode" = unhealthy ]; then echo '{"Name":"app-api-1","State":"exited","Health":"","ExitCode":1}';
    else echo '{"Name":"app-api-1","State":"running","Health":"healthy"}'; fi ;;
  *" logs "*)
    echo "web-1  | 2024-01-01T00:00:00.000000000Z started"
    case " $* " in *" --follow "*)
      while :; do echo "web-1  | 2024-01-01T00:00:01.000000000Z still running"; sleep 0.2; done ;;
    esac ;;
  *" exec "*) printf 'PGDMP\\000\\001binary dump of app\\n'; printf 'COPY rows 1..1000\\n' ;;
  *" network inspect "*) ;;
  *" inspect "*) echo "Error: No such object" >&2; exit 1 ;;
  *" run "*) echo "5f1c2a7e9b3d" ;;
  *" image ls "*) ;;
  *" image rm "*) echo "Untagged: $4" ;;
  *" image prune "*) echo "Total reclaimed space: 0B" ;;
  *" images "*) echo '[{"ContainerName":"app-api-1","Repository":"ghcr.io/acme/api","Tag":"1","ID":"sha256:5f1c2a7e9b3d4c6a8e0f1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6"}]' ;;
  *) echo "docker: unexpected call: $*" >&2; exit 2 ;;
esac
`;
}

/**
 * With a real engine: Debian's docker client, recording its arguments the same way, then doing
 * the real thing.
 */
function recordingDocker(dir: string): string {
  return `#!/bin/sh
for a in "$@"; do printf '%s\\0' "$a"; done >> "${dir}/docker-calls"
printf '\\n' >> "${dir}/docker-calls"
exec /usr/bin/docker "$@"
`;
}

/**
 * A real OpenSSH server on a free loopback port (and `listenAddress`, given one), with generated keys. Its user's docker is a fake
 * that prints what docker would, or, given an engine, the real client talking to that engine.
 * `env` adds `NAME=value` lines (no spaces) to every session's environment, as a server's own
 * configuration would set them (e.g. `GIT_SSL_CAINFO` for a CA the server trusts).
 */
export async function startSshd(
  options: { engine?: DockerEngine; env?: string[]; listenAddress?: string } = {},
): Promise<TestSshd> {
  const { engine } = options;
  for (const line of options.env ?? [])
    if (!/^[A-Za-z_][A-Za-z0-9_]*=\S*$/.test(line))
      throw new Error(`startSshd: env lines are NAME=value without spaces: ${line}`);
  const sshd = await startLoopbackSshd({
    docker: engine ? recordingDocker : fakeDocker,
    env: [
      ...(engine ? [`DOCKER_HOST=${engine.host}`, `DOCKER_CONFIG=${engine.config}`] : []),
      ...(options.env ?? []),
    ],
    // Another address of this machine too (a test network's), for runners on other hosts.
    config: options.listenAddress ? [`ListenAddress ${options.listenAddress}`] : [],
  });
  const { dir } = sshd;
  return {
    ...sshd,
    host: options.listenAddress ?? sshd.host,
    setMode: (mode) => {
      if (engine) throw new Error('a real engine has no modes: deploy an image that behaves so');
      writeFileSync(join(dir, 'docker-mode'), mode);
    },
    dockerCalls: () => {
      const file = join(dir, 'docker-calls');
      if (!existsSync(file)) return [];
      return readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\0').filter((a, i, all) => i < all.length - 1 || a !== ''));
    },
  };
}

/** Registers the test sshd as a ready server through the API; returns its id. */
export async function registerLoopbackServer(
  url: string,
  auth: Record<string, string>,
  sshd: TestSshd,
  name = 'loopback',
): Promise<string> {
  const res = await call(url, 'POST', 'registerServer', auth, {
    name,
    host: sshd.host,
    sshPort: sshd.port,
    sshUser: sshd.user,
    privateKey: sshd.clientKey,
    hostKeyFingerprint: sshd.fingerprint,
  });
  const serverId = res.body.result.data.json.serverId as string;
  await call(url, 'POST', 'approveServerHostKey', auth, {
    serverId,
    fingerprint: sshd.fingerprint,
  });
  return serverId;
}

/** Turns the test app's runner on (test apps start with it off), deploying to the test sshd. */
export async function startRunnerFor(t: TestApp, sshd: TestSshd): Promise<void> {
  Object.assign(t.config.runner, {
    mode: 'embedded',
    remoteDir: sshd.remoteDir,
    stepTimeoutSeconds: 60,
    pollMs: 50,
  });
  await t.app.get(DeploymentRunner).onApplicationBootstrap();
}

/**
 * Pokes the runner and reads the deployment until it reaches one of `statuses`, for at most
 * `timeoutMs`.
 */
export async function waitForDeployment<T extends { status: string }>(
  t: TestApp,
  auth: Record<string, string>,
  deploymentId: string,
  statuses: string[],
  timeoutMs: number,
  pollMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    t.app.get(DeploymentRunner).poke();
    const d = data<T>(await call(t.url, 'GET', 'deploymentDetails', auth, { deploymentId }));
    if (statuses.includes(d.status)) return d;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error(`deployment ${deploymentId} never reached ${statuses.join('/')}`);
}

/** A deployment's log as `<step>: <text>` lines, for a failure message. */
export async function deploymentLog(
  t: TestApp,
  auth: Record<string, string>,
  deploymentId: string,
): Promise<string> {
  const { lines } = data<{ lines: { step: string; text: string }[] }>(
    await call(t.url, 'GET', 'deploymentLogs', auth, { deploymentId, limit: 1000 }),
  );
  return lines.map((l) => `${l.step}: ${l.text}`).join('\n');
}

/**
 * Triggers a deployment of `imageTag` and waits (60 s at most) for it to succeed or fail; a
 * timeout's error carries the deployment's log.
 */
export async function deployAndWait<T extends { status: string }>(
  t: TestApp,
  auth: Record<string, string>,
  serviceId: string,
  imageTag: string,
): Promise<T> {
  const { deploymentId } = data<{ deploymentId: string }>(
    await call(t.url, 'POST', 'triggerDeploy', auth, { serviceId, imageTag }),
  );
  try {
    return await waitForDeployment<T>(t, auth, deploymentId, ['succeeded', 'failed'], 60_000, 50);
  } catch (error) {
    const log = await deploymentLog(t, auth, deploymentId);
    throw new Error(`${(error as Error).message}\n${log}`, { cause: error });
  }
}
