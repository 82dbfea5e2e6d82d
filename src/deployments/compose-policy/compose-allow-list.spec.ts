import { describe, expect, it } from '@jest/globals';
import { readComposeDocument, validateCompose } from '../compose.js';
import { judgeCompose } from './compose-violations.js';
import { COMPOSE_ATTACKS } from './testing/compose-attacks.js';

function judged(yaml: string) {
  const parsed = readComposeDocument(yaml, null);
  if (!parsed.ok) throw new Error(parsed.issues.map((i) => i.message).join('; '));
  return judgeCompose(parsed.document);
}

const capabilities = (yaml: string) => [
  ...new Set(judged(yaml).violations.map((v) => v.capability)),
];

describe('compose policy: an allow-list of the Compose specification', () => {
  it.each(COMPOSE_ATTACKS.map((a) => [a.name, a] as const))(
    'given %s, then the policy finds what it asks for',
    (_name, attack) => {
      expect(capabilities(attack.compose)).toEqual(expect.arrayContaining(attack.asks));
      expect(judged(attack.compose).unknownKeys).toEqual([]);
    },
  );

  it('finds nothing in an ordinary stack that uses the common keys', () => {
    const compose = [
      'name: shop',
      'x-common: &common',
      '  restart: unless-stopped',
      '  logging: {driver: json-file, options: {max-size: 10m}}',
      'services:',
      '  web:',
      '    <<: *common',
      '    image: ghcr.io/acme/web:1.2.3',
      '    build: {context: ./web, dockerfile: Dockerfile, args: {A: "1"}, cache_from: ["type=registry,ref=r/x"]}',
      '    ports: ["8080:80", {target: 443, published: 8443}]',
      '    environment: {DATABASE_URL: "postgres://db/shop"}',
      '    env_file: [.env.web]',
      '    depends_on: {db: {condition: service_healthy}}',
      '    healthcheck: {test: ["CMD", "true"], interval: 10s}',
      '    deploy: {resources: {limits: {cpus: "0.5", memory: 256M}}}',
      '    security_opt: ["no-new-privileges:true"]',
      '    cap_drop: [ALL]',
      '    cap_add: [NET_BIND_SERVICE]',
      '    networks: [front, back]',
      '    volumes: ["./static:/srv/static:ro", "uploads:/uploads", {type: tmpfs, target: /tmp}]',
      '    secrets: [db_password]',
      '    configs: [{source: nginx, target: /etc/nginx/nginx.conf}]',
      '  db:',
      '    <<: *common',
      '    image: postgres:16',
      '    network_mode: service:web',
      '    volumes_from: ["web:ro"]',
      '    runtime: runc',
      'networks:',
      '  front: {}',
      '  back: {internal: true}',
      'volumes:',
      '  uploads: {}',
      'secrets:',
      '  db_password: {file: ./db_password.txt}',
      'configs:',
      '  nginx: {content: "events {}"}',
    ].join('\n');
    expect(judged(compose)).toEqual({ violations: [], unknownKeys: [] });
  });

  it('refuses keys that are not Compose keys, at every level it judges', () => {
    const result = validateCompose(
      [
        'services:',
        '  api:',
        '    image: a:1',
        '    mount_everything: true',
        '    build: {context: ., hostmount: /}',
        '    volumes: [{type: volume, source: data, target: /d, propagate_to_host: true}]',
        '    x-notes: fine',
        'volumes:',
        '  data: {device: /}',
        'x-anything: {goes: here}',
        'unknown_top: 1',
      ].join('\n'),
    );
    expect(result.ok).toBe(false);
    expect(
      result.ok ? [] : result.issues.filter((i) => i.message === 'is not a Compose key'),
    ).toEqual([
      { path: 'compose.services.api.mount_everything', message: 'is not a Compose key' },
      { path: 'compose.services.api.build.hostmount', message: 'is not a Compose key' },
      {
        path: 'compose.services.api.volumes[0].propagate_to_host',
        message: 'is not a Compose key',
      },
      { path: 'compose.volumes.data.device', message: 'is not a Compose key' },
      { path: 'compose.unknown_top', message: 'is not a Compose key' },
    ]);
  });

  it('refuses a "<<" key that is not a merge, and a merge of something that is not a map', () => {
    for (const text of [
      'x-b: &b {type: bind, source: /}\nservices:\n  api:\n    image: a:1\n    volumes:\n      - "<<": *b\n        target: /h\n',
      'services:\n  api:\n    image: a:1\n    <<: 5\n',
      'x-l: &l [1]\nservices:\n  api:\n    image: a:1\n    <<: *l\n',
    ]) {
      const result = validateCompose(text);
      expect(result.ok).toBe(false);
      expect(result.ok ? false : result.overLimits).toBeFalsy();
    }
  });

  it('refuses a service that is not a mapping as invalid, without judging it as one', () => {
    for (const value of ['5', 'null', '"text"', '[a, b]']) {
      const result = validateCompose(`services:\n  api: ${value}\n  web:\n    image: a:1\n`);
      expect(result.ok ? [] : result.issues).toEqual([
        { path: 'compose.services.api', message: 'must be a mapping' },
      ]);
    }
  });

  it('sees an image supplied by a merge key as the service image', () => {
    const result = validateCompose(
      'x-base: &base {image: "ghcr.io/acme/api:1"}\nservices:\n  api:\n    <<: *base\n',
    );
    expect(result.ok && result.summary.services.map((s) => s.image)).toEqual([
      'ghcr.io/acme/api:1',
    ]);
  });
});
