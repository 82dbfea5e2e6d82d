import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { dockerEngine } from './support/docker-engine.js';

const file = (name: string) => fileURLToPath(new URL(`../docker/${name}`, import.meta.url));

interface Config {
  name: string;
  volumes: Record<string, { name: string }>;
  services: Record<string, { command?: string[]; environment?: Record<string, string> }>;
}

/** The packaged compose files as Docker Compose reads them: each its own project and volumes. */
describe('docker/compose.yml, compose.postgres.yml and compose.embedded.yml', () => {
  it('never share a project, a container or a volume', () => {
    const engine = dockerEngine();
    // compose.yml refuses to start without its keys: any value lets `config` read it.
    process.env.SLIPWAY_SECRET_KEY ??= 'placeholder';
    process.env.SLIPWAY_AUDIT_SIGNING_KEY ??= 'placeholder';
    process.env.SLIPWAY_POSTGRES_PASSWORD ??= 'placeholder';
    const read = (name: string) =>
      JSON.parse(
        engine.docker(['compose', '-f', file(name), 'config', '--format', 'json']),
      ) as Config;
    const full = read('compose.yml');
    const postgres = read('compose.postgres.yml');
    const embedded = read('compose.embedded.yml');
    expect([full.name, postgres.name, embedded.name]).toEqual([
      'slipway',
      'slipway-postgres',
      'slipway-embedded',
    ]);
    const volumes = (c: Config) => Object.values(c.volumes).map((v) => v.name);
    expect(volumes(embedded)).toEqual(['slipway-embedded_slipway-data']);
    expect(volumes(full)).toContain('slipway_slipway-data');
    expect(volumes(postgres)).toContain('slipway-postgres_postgres-data');
    const all = [full, postgres, embedded].flatMap(volumes);
    expect(new Set(all).size).toBe(all.length);
  });

  it('runs every Slipway process of the PostgreSQL variant on the database, counted as replicas', () => {
    const engine = dockerEngine();
    const postgres = JSON.parse(
      engine.docker(['compose', '-f', file('compose.postgres.yml'), 'config', '--format', 'json']),
    ) as Config;
    const slipway = Object.entries(postgres.services).filter(
      ([, s]) => s.environment?.SLIPWAY_POSTGRES_URL,
    );
    expect(slipway.map(([name]) => name).sort()).toEqual(['api-1', 'api-2', 'worker']);
    for (const [, service] of slipway) {
      expect(service.environment?.SLIPWAY_REPLICAS).toBe(String(slipway.length));
      expect(service.environment?.SLIPWAY_POSTGRES_URL).toMatch(/@postgres:5432\/slipway$/);
    }
    expect(postgres.services.worker.command).toEqual(['node', 'dist/src/worker.js']);
  });
});
