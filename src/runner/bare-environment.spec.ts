import { describe, expect, it } from '@jest/globals';
import { readComposeDocument } from '../deployments/compose.js';
import { composeViolations } from '../deployments/compose-policy/compose-violations.js';
import {
  judgingVariables,
  runningVariables,
} from '../deployments/compose-reading/compose-variables.js';
import { resolveBareEnvironment } from './bare-environment.js';
import { composeDocumentForDeployment, composeForDeployment } from './compose-image.js';

const IMAGE = 'ghcr.io/acme/api:2';
/** A plain variable and a secret, as a snapshot records them (the secret sealed). */
const ENV = [
  { name: 'SLIPWAY_X', value: 'from the service' },
  { name: 'TOKEN', value: null, secretCiphertext: 'sealed:t$ken' },
  { name: 'EMPTY', value: '' },
];
const running = runningVariables(ENV, (sealed) => sealed.replace('sealed:', ''));

type Service = Record<string, unknown>;
const services = (compose: string) =>
  composeDocumentForDeployment(compose, running, IMAGE).services as Record<string, Service>;

describe('environment entries without a value, in the document a deployment runs', () => {
  it('given the list form, takes the service’s variable or leaves the entry out', () => {
    const api = services(`services:
  api:
    image: ghcr.io/acme/api:1
    environment: [HOME, SLIPWAY_X, TOKEN, EMPTY, SSH_CONNECTION, "SET=kept", "BLANK="]
`).api;
    expect(api.environment).toEqual([
      'SLIPWAY_X=from the service',
      'TOKEN=t$ken',
      'EMPTY=',
      'SET=kept',
      'BLANK=',
    ]);
  });

  it('given the map form, fills a null value or leaves the key out; written values stay', () => {
    const api = services(`services:
  api:
    image: ghcr.io/acme/api:1
    environment:
      HOME:
      PATH: ~
      SLIPWAY_X:
      TOKEN: null
      SET: kept
      EMPTY_STRING: ""
      PORT: 8080
`).api;
    expect(api.environment).toEqual({
      SLIPWAY_X: 'from the service',
      TOKEN: 't$ken',
      SET: 'kept',
      EMPTY_STRING: '',
      PORT: 8080,
    });
  });

  it('resolves what interpolation left without a value, and extended services as assembled', () => {
    const byName = services(`services:
  base:
    image: ghcr.io/acme/api:1
    environment: {SLIPWAY_X: null, USER: null}
  api:
    extends: base
    environment: ["\${NAME:-SLIPWAY_X}", LOGNAME]
`);
    expect(byName.base.environment).toEqual({ SLIPWAY_X: 'from the service' });
    expect(byName.api.environment).toEqual({ SLIPWAY_X: 'from the service' });
  });

  it('resolves build arguments alike (a build runs on the server too)', () => {
    const web = services(`services:
  web:
    build:
      context: .
      args: [SLIPWAY_X, HOSTNAME, "FIXED=1"]
  api:
    image: ghcr.io/acme/api:1
    build: {context: ./api, args: {TOKEN: null, HOME: null}}
`);
    expect((web.web.build as Service).args).toEqual(['SLIPWAY_X=from the service', 'FIXED=1']);
    expect((web.api.build as Service).args).toEqual({ TOKEN: 't$ken' });
  });

  it('writes the values escaped, so the server’s Compose reads them as they are', () => {
    const text = composeForDeployment(
      'services:\n  api:\n    image: ghcr.io/acme/api:1\n    environment: [TOKEN, HOME]\n',
      running,
      IMAGE,
    );
    expect(JSON.parse(text).services.api.environment).toEqual(['TOKEN=t$$ken']);
  });

  it('leaves a document without such entries as it was', () => {
    const read = readComposeDocument(
      'services:\n  api:\n    image: ghcr.io/acme/api:1\n    environment: {A: "1"}\n    build: .\n',
      running,
    );
    if (!read.ok) throw new Error('unreadable');
    const before = JSON.stringify(read.document);
    resolveBareEnvironment(read.document, running);
    expect(JSON.stringify(read.document)).toBe(before);
  });
});

describe('the policy’s view of the same file', () => {
  const compose = `services:
  api:
    image: ghcr.io/acme/api:1
    environment: [HOME, TOKEN, SLIPWAY_X]
    volumes: ["/etc:/host-etc"]
    build: {context: ., args: [TOKEN]}
`;

  it('is read without resolving (the runner resolves only what it writes) and judged alike', () => {
    const judged = readComposeDocument(compose, judgingVariables(ENV));
    if (!judged.ok) throw new Error('unreadable');
    const api = (judged.document.services as Record<string, Service>).api;
    expect(api.environment).toEqual(['HOME', 'TOKEN', 'SLIPWAY_X']);
    const run = composeDocumentForDeployment(compose, running, IMAGE);
    const paths = (violations: { path: string; capability: string }[]) =>
      violations.map((v) => `${v.path} ${v.capability}`);
    expect(paths(composeViolations(run, []))).toEqual(
      paths(composeViolations(judged.document, [])),
    );
    expect(paths(composeViolations(judged.document, []))).toContain(
      'compose.services.api.volumes[0] sensitiveHostPaths',
    );
  });
});
