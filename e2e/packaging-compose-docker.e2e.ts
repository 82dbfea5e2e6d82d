import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { dockerEngine } from './support/docker-engine.js';

const file = (name: string) => fileURLToPath(new URL(`../docker/${name}`, import.meta.url));

interface Config {
  name: string;
  volumes: Record<string, { name: string }>;
}

/** The packaged compose files as Docker Compose reads them: each its own project and volumes. */
describe('docker/compose.yml and docker/compose.embedded.yml', () => {
  it('never share a project, a container or a volume', () => {
    const engine = dockerEngine();
    // compose.yml refuses to start without its keys: any value lets `config` read it.
    process.env.SLIPWAY_SECRET_KEY ??= 'placeholder';
    process.env.SLIPWAY_AUDIT_SIGNING_KEY ??= 'placeholder';
    const read = (name: string) =>
      JSON.parse(
        engine.docker(['compose', '-f', file(name), 'config', '--format', 'json']),
      ) as Config;
    const full = read('compose.yml');
    const embedded = read('compose.embedded.yml');
    expect([full.name, embedded.name]).toEqual(['slipway', 'slipway-embedded']);
    const volumes = (c: Config) => Object.values(c.volumes).map((v) => v.name);
    expect(volumes(embedded)).toEqual(['slipway-embedded_slipway-data']);
    expect(volumes(full)).toContain('slipway_slipway-data');
    expect(volumes(full).filter((v) => volumes(embedded).includes(v))).toEqual([]);
  });
});
