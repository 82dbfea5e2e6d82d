import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readComposeDocument } from '../src/deployments/compose.js';
import { escapeDollars } from '../src/deployments/compose-reading/escape-dollars.js';
import { readPort } from '../src/deployments/compose-reading/port-syntax.js';
import { COMPOSE_CORPUS } from '../src/deployments/compose-reading/testing/compose-corpus.js';
import { composeConfig } from './support/compose-config.js';
import { SCRIPT } from './support/docker-engine.js';

type Json = Record<string, unknown>;
const isMap = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `KEY=value` lines or a map, as one map of strings (null: taken from the environment). */
function named(value: unknown): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  if (Array.isArray(value))
    for (const entry of value as string[]) {
      const at = entry.indexOf('=');
      out[at < 0 ? entry : entry.slice(0, at)] = at < 0 ? null : entry.slice(at + 1);
    }
  else if (isMap(value))
    for (const [k, v] of Object.entries(value)) out[k] = v === null ? null : String(v);
  return out;
}

function ports(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .flatMap((entry) => {
      const port = readPort(entry);
      if ('problem' in port) return [`unreadable ${JSON.stringify(entry)}`];
      // Compose lists a range as one entry per port.
      const [from, to] = port.target.split('-').map(Number);
      const [pFrom] = (port.published ?? '').split('-').map(Number);
      return Array.from({ length: (to || from) - from + 1 }, (_, i) =>
        [
          port.hostIp ?? '',
          port.published === null ? '' : String(pFrom + i),
          from + i,
          port.protocol,
        ].join('|'),
      );
    })
    .sort();
}

/** What both readings must agree on, service by service. */
function projection(document: Json): Json {
  const services = isMap(document.services) ? document.services : {};
  return Object.fromEntries(
    Object.entries(services)
      // Compose leaves out the services of profiles not asked for; so does `up` on the server.
      .filter(([, raw]) => !(isMap(raw) && Array.isArray(raw.profiles) && raw.profiles.length))
      .map(([name, raw]) => {
        const s = raw as Json;
        const build =
          typeof s.build === 'string' ? { context: s.build } : (s.build as Json | undefined);
        return [
          name,
          {
            image: s.image ?? null,
            builds: build !== undefined,
            buildArgs: build ? named(build.args) : {},
            ports: ports(s.ports),
            environment: named(s.environment),
            labels: named(s.labels),
            command: Array.isArray(s.command) ? s.command : null,
            entrypoint: Array.isArray(s.entrypoint) ? s.entrypoint : null,
            volumeTargets: (Array.isArray(s.volumes) ? s.volumes : [])
              .map((v: unknown) =>
                isMap(v) ? String(v.target) : (String(v).split(':')[1] ?? String(v)),
              )
              .sort(),
            healthcheck: isMap(s.healthcheck) ? (s.healthcheck.test ?? null) : null,
            restart: s.restart ?? null,
            user: s.user ?? null,
            dependsOn: Object.keys(
              Array.isArray(s.depends_on) ? named(s.depends_on) : (s.depends_on ?? {}),
            ).sort(),
            replicas:
              isMap(s.deploy) && s.deploy.replicas !== undefined ? Number(s.deploy.replicas) : null,
          },
        ];
      }),
  );
}

/**
 * Slipway's reading of each corpus file against Compose's own (`docker compose config`, the
 * Compose the servers run, with the service's variables in the env file the runner writes):
 * the same services, images, ports, variables, commands and mounts. And the document the runner
 * ships (escaped) reads the same again, whatever the server's own environment holds.
 */
describe('compose files as Compose reads them', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'slipway-compose-corpus-'));

  beforeAll(() => {
    execFileSync('bash', [SCRIPT, 'install'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }, 10 * 60_000);

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** Compose's output writes a literal `$` as `$$`, ready to be read again: read here once. */
  const unescaped = (value: unknown): unknown =>
    typeof value === 'string'
      ? value.replace(/\$\$/g, '$')
      : Array.isArray(value)
        ? value.map(unescaped)
        : isMap(value)
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unescaped(v)]))
          : value;

  function composeRead(dir: string, file: string, serverEnv: Record<string, string>): Json {
    const args = ['-f', join(dir, file), '--env-file', join(dir, '.env')];
    const result = composeConfig(dir, args, serverEnv);
    if (result.status !== 0) throw new Error(`compose config ${file}: ${result.stderr}`);
    return unescaped(JSON.parse(result.stdout)) as Json;
  }

  it.each(COMPOSE_CORPUS.map((c) => [c.name, c] as const))('%s', (_, file) => {
    const dir = mkdtempSync(join(scratch, 'c-'));
    writeFileSync(join(dir, 'compose.yaml'), file.compose);
    for (const f of ['db_password.txt', 'config.yaml']) writeFileSync(join(dir, f), 'x\n');
    const env = Object.entries(file.variables).map(([k, v]) => `${k}=${JSON.stringify(v)}\n`);
    writeFileSync(join(dir, '.env'), env.join(''));

    const ours = readComposeDocument(file.compose, new Map(Object.entries(file.variables)));
    if (!ours.ok) throw new Error(JSON.stringify(ours.issues));
    // An empty env file for the shipped document: it needs no variable of the server's.
    const shippedDir = mkdtempSync(join(scratch, 's-'));
    writeFileSync(join(shippedDir, 'shipped.json'), JSON.stringify(escapeDollars(ours.document)));
    for (const f of ['db_password.txt', 'config.yaml']) writeFileSync(join(shippedDir, f), 'x\n');
    writeFileSync(join(shippedDir, '.env'), '');

    const theirs = projection(composeRead(dir, 'compose.yaml', {}));
    expect(projection(ours.document)).toEqual(theirs);
    // The server's environment has values of the same names: the shipped document reads none.
    const hostile = { PORT: '1', NOT_SET: 'from-the-server', REDIS_TAG: 'server', HOME: '/root' };
    expect(projection(composeRead(shippedDir, 'shipped.json', hostile))).toEqual(theirs);
  });
});
