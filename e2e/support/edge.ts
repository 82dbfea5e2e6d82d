import { request } from 'node:http';
import type { AppConfig } from '../../src/config/app-config.js';
import { EDGE_CONTAINER } from '../../src/runner/edge/edge-container.js';
import { dockerEngine, type DockerEngine } from './docker-engine.js';
import { data } from './deployments.js';
import { call, cookieAuth, signUp } from './identity.js';
import {
  ALLOW_LOOPBACK,
  registerLoopbackServer,
  startRunnerFor,
  startSshd,
  type TestSshd,
} from './sshd.js';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app.js';

/**
 * What the edge proxy listening on loopback `port` answers for `host` and `path`: `<status>
 * <body>`, or `unreachable: <why>`. A connection per request: a kept-alive one closed by a
 * configuration reload while idle is the client's to retry, not a failed request.
 */
export function viaEdge(port: number, host: string, path: string): Promise<string> {
  return new Promise<string>((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { Host: host }, timeout: 5000, agent: false },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(`${res.statusCode} ${body.trim()}`));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) => resolve(`unreachable: ${error.message}`));
    req.end();
  });
}

/**
 * Requests through the proxy one after another until stopped, to each host in turn (`ask`
 * sends one: by default plain HTTP to `/version` on loopback `port`): how many of each answer,
 * and every failure (anything but a 200) with its time.
 */
export function traffic(
  port: number,
  hosts: string[],
  ask: (host: string) => Promise<string> = (host) => viaEdge(port, host, '/version'),
) {
  const answers = new Map<string, number>();
  const failures: string[] = [];
  let running = true;
  const loop = (async () => {
    for (let i = 0; running; i++) {
      const host = hosts[i % hosts.length];
      const answer = await ask(host);
      if (/^200 /.test(answer)) answers.set(answer, (answers.get(answer) ?? 0) + 1);
      else failures.push(`${new Date().toISOString()} ${host}: ${answer}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { answers: Object.fromEntries(answers), failures };
    },
  };
}

/** A server with a real sshd on the real engine, a Slipway whose edge proxy runs there. */
export interface EdgeSuite {
  engine: DockerEngine;
  sshd: TestSshd;
  t: TestApp;
  /** The owner's session cookie, and the headers that send it. */
  cookie: string;
  owner: Record<string, string>;
  serverId: string;
  /** The test registry's `acme/api` image with this tag. */
  image: (tag: string) => string;
  /** Removes the proxy and the compose project, stops Slipway and sshd. */
  stop: () => Promise<void>;
}

/**
 * Starts what every edge suite needs, with no proxy or `project` left from another run: the
 * engine, sshd (its sessions' environment with `sshdEnv`'s `NAME=value` lines too), Slipway (its
 * edge proxy from the test registry's Caddy image, publishing `publish`, no watch, a 1 s drain,
 * then `edge`), its runner, an owner and the server.
 */
export async function startEdgeSuite(options: {
  project: string;
  publish: string[];
  app?: TestAppOptions;
  edge?: Partial<AppConfig['edge']>;
  sshdEnv?: string[];
}): Promise<EdgeSuite> {
  const { project, publish } = options;
  const engine = dockerEngine();
  engine.removeProject(project);
  engine.docker(['rm', '-f', EDGE_CONTAINER]);
  const sshd = await startSshd({ engine, env: options.sshdEnv });
  const app = options.app ?? {};
  const t = await startTestApp({
    notes: false,
    ...app,
    config: { serverAddressPolicy: ALLOW_LOOPBACK, ...app.config },
  });
  Object.assign(t.config.edge, {
    image: `${engine.registry}/slipway/caddy:2`,
    publish,
    watchSeconds: 0,
    drainSeconds: 1,
    ...options.edge,
  });
  await startRunnerFor(t, sshd);
  const { cookie } = await signUp(t.url, 'owner@example.com');
  const owner = cookieAuth(cookie);
  const serverId = await registerLoopbackServer(t.url, owner, sshd);
  return {
    engine,
    sshd,
    t,
    cookie,
    owner,
    serverId,
    image: (tag) => `${engine.registry}/acme/api:${tag}`,
    stop: async () => {
      await t.close();
      await sshd.stop();
      engine.docker(['rm', '-f', EDGE_CONTAINER]);
      engine.removeProject(project);
    },
  };
}

/**
 * A service `name` (production) on the suite's server, its image repository `acme/<name>` in the
 * test registry, its compose service `web` routed from `domain` over plain HTTP. Its id.
 */
export async function registerRoutedService(
  suite: EdgeSuite,
  name: string,
  domain: string,
): Promise<string> {
  const repository = `${suite.engine.registry}/acme/${name}`;
  const res = await call(suite.t.url, 'POST', 'registerService', suite.owner, {
    name,
    environment: 'production',
    serverId: suite.serverId,
    imageRepository: repository,
    compose: `services:\n  web:\n    image: ${repository}:latest\n`,
    routes: [{ domain, service: 'web', port: 80, tls: 'off' }],
  });
  return data<{ serviceId: string }>(res).serviceId;
}
