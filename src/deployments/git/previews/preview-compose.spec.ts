import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { previewCompose } from './preview-compose.js';

const NONE = { memoryMb: null, cpus: null };

describe('the compose definition a preview runs', () => {
  it('publishes no port and keeps no fixed container name, the rest as it was', () => {
    const compose = [
      'services:',
      '  web:',
      '    image: ghcr.io/acme/web:1.0.0',
      '    container_name: web',
      '    ports: ["80:8080"]',
      '    environment: { DATABASE_URL: "${DATABASE_URL}" }',
      '  db:',
      '    image: postgres:16',
      '    ports: ["5432:5432"]',
      '    volumes: [data:/var/lib/postgresql/data]',
      'volumes:',
      '  data: {}',
    ].join('\n');
    expect(parse(previewCompose(compose, NONE)!)).toEqual({
      services: {
        web: {
          image: 'ghcr.io/acme/web:1.0.0',
          environment: { DATABASE_URL: '${DATABASE_URL}' },
        },
        db: { image: 'postgres:16', volumes: ['data:/var/lib/postgresql/data'] },
      },
      volumes: { data: {} },
    });
  });

  it('puts the previews’ limits on every container, over what the service had', () => {
    const compose =
      'services:\n  web:\n    image: a:1\n    mem_limit: 4g\n  worker:\n    image: b:1\n';
    expect(parse(previewCompose(compose, { memoryMb: 256, cpus: 0.5 })!)).toEqual({
      services: {
        web: { image: 'a:1', mem_limit: '256m', cpus: 0.5 },
        worker: { image: 'b:1', mem_limit: '256m', cpus: 0.5 },
      },
    });
  });

  it('judges the document Compose reads: merge keys resolved, published ports under them too', () => {
    const compose = [
      'x-web: &web',
      '  image: a:1',
      '  ports: ["80:80"]',
      'services:',
      '  web:',
      '    <<: *web',
    ].join('\n');
    expect(parse(previewCompose(compose, NONE)!).services).toEqual({ web: { image: 'a:1' } });
  });

  it('is null for a definition it cannot read', () => {
    expect(previewCompose('services: [', NONE)).toBeNull();
    expect(previewCompose('services:\n  web: 3\n', NONE)).toBeNull();
  });
});
