import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readComposeDocument } from '../src/deployments/compose.js';
import { judgeCompose } from '../src/deployments/compose-policy/compose-violations.js';
import { COMPOSE_ATTACKS } from '../src/deployments/compose-policy/testing/compose-attacks.js';
import { composeConfig, DOCKER_CONFIG_DIR } from './support/compose-config.js';
import { SCRIPT } from './support/docker-engine.js';

interface SchemaObject {
  properties?: Record<string, SchemaObject>;
  definitions?: Record<string, SchemaObject>;
  oneOf?: SchemaObject[];
  items?: SchemaObject | { oneOf?: SchemaObject[] };
}

/**
 * The Compose specification's schema as the Compose we run embeds it (Compose validates every
 * file against it): the JSON object in the plugin's binary whose id is compose_spec.json.
 */
function embeddedSchema(): SchemaObject {
  const binary = readFileSync(join(DOCKER_CONFIG_DIR, 'cli-plugins/docker-compose')).toString(
    'latin1',
  );
  const marker = binary.indexOf('"compose_spec.json"');
  if (marker < 0) throw new Error('no compose_spec.json in the Compose plugin');
  const start = binary.lastIndexOf('{', marker);
  let depth = 0;
  for (let i = start; i < binary.length; i++) {
    if (binary[i] === '{') depth++;
    else if (binary[i] === '}' && --depth === 0)
      return JSON.parse(binary.slice(start, i + 1)) as SchemaObject;
  }
  throw new Error('the embedded schema does not end');
}

const keysOf = (o: SchemaObject | undefined) => Object.keys(o?.properties ?? {});
const objectOf = (o: SchemaObject | undefined) => o?.oneOf?.find((x) => x.properties) ?? o;

/**
 * The allow-list against the specification itself: every key Compose knows is judged (none is
 * reported as unknown), and Compose's own reading of each attack asks for no more than the
 * policy finds in the text the user sent.
 */
describe('the compose policy against the Compose specification', () => {
  let schema: SchemaObject;
  const scratch = mkdtempSync(join(tmpdir(), 'slipway-compose-spec-'));

  beforeAll(() => {
    execFileSync('bash', [SCRIPT, 'install'], { stdio: ['ignore', 'ignore', 'inherit'] });
    schema = embeddedSchema();
  }, 10 * 60_000);

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('knows every key of the specification, at every level it judges', () => {
    const d = schema.definitions ?? {};
    const service = d.service;
    const volumesItems = service?.properties?.volumes?.items as SchemaObject;
    const places: [string, string[], (key: string) => unknown][] = [
      ['top level', keysOf(schema), (k) => ({ [k]: null })],
      ['service', keysOf(service), (k) => ({ services: { a: { [k]: null } } })],
      [
        'build',
        keysOf(objectOf(service?.properties?.build)),
        (k) => ({ services: { a: { build: { [k]: null } } } }),
      ],
      [
        'mount',
        keysOf(objectOf(volumesItems)),
        (k) => ({ services: { a: { volumes: [{ type: 'volume', [k]: null }] } } }),
      ],
      [
        'extends',
        keysOf(objectOf(service?.properties?.extends)),
        (k) => ({ services: { a: { extends: { [k]: null } } } }),
      ],
      ['network', keysOf(d.network), (k) => ({ networks: { n: { [k]: null } } })],
      ['volume', keysOf(d.volume), (k) => ({ volumes: { v: { [k]: null } } })],
      ['secret', keysOf(d.secret), (k) => ({ secrets: { s: { [k]: null } } })],
      ['config', keysOf(d.config), (k) => ({ configs: { c: { [k]: null } } })],
      [
        'service hook',
        keysOf(d.service_hook),
        (k) => ({ services: { a: { post_start: [{ [k]: null }] } } }),
      ],
    ];
    const counted = places.map(([place, keys]) => [place, keys.length] as const);
    // The schema was read, not an empty object: the levels Compose 2.26 has are all there.
    expect(counted.filter(([, n]) => n > 0).map(([p]) => p)).toEqual(
      expect.arrayContaining(['top level', 'service', 'build', 'mount', 'network', 'volume']),
    );
    const unknown = places.flatMap(([place, keys, documentWith]) =>
      keys.flatMap((key) =>
        judgeCompose(documentWith(key)).unknownKeys.map((p) => `${place}: ${p}`),
      ),
    );
    expect(unknown).toEqual([]);
  });

  it("finds at least what Compose's own reading of each attack asks for", () => {
    let readByCompose = 0;
    for (const attack of COMPOSE_ATTACKS) {
      const parsed = readComposeDocument(attack.compose, null);
      if (!parsed.ok) throw new Error(`${attack.name}: ${parsed.issues[0].message}`);
      const ours = new Set(judgeCompose(parsed.document).violations.map((v) => v.capability));
      expect([attack.name, attack.asks.filter((c) => !ours.has(c))]).toEqual([attack.name, []]);

      const dir = mkdtempSync(join(scratch, 'p-'));
      writeFileSync(join(dir, 'compose.yaml'), attack.compose);
      // MOUNT: the worst a server's environment could set.
      const compose = composeConfig(dir, ['-f', join(dir, 'compose.yaml')], { MOUNT: '/:/host' });
      // Compose refuses some (a newer key than it knows, a file it cannot find): nothing runs.
      if (compose.status !== 0) continue;
      readByCompose++;
      const normalized = JSON.parse(compose.stdout) as Record<
        string,
        Record<string, Record<string, unknown>>
      >;
      // Compose names the project's own networks and volumes `p_<key>`: not someone else's.
      for (const kind of ['networks', 'volumes'])
        for (const [key, def] of Object.entries(normalized[kind] ?? {}))
          if (def && def.name === `p_${key}` && !def.external) delete def.name;
      const theirs = judgeCompose(normalized).violations.map((v) => v.capability);
      expect([attack.name, theirs.filter((c) => !ours.has(c))]).toEqual([attack.name, []]);
    }
    // Most attacks are valid Compose: the comparison ran, it did not pass by skipping.
    expect(readByCompose).toBeGreaterThanOrEqual(COMPOSE_ATTACKS.length - 8);
  });
});
