import { describe, expect, it } from '@jest/globals';
import { readComposeDocument } from '../deployments/compose.js';
import type { ComposeMap } from '../deployments/compose-reading/compose-merge.js';
import {
  buildDocuments,
  buildsOutsideCheckout,
  rootedBuildPaths,
  serviceImage,
} from './compose-builds.js';

const COMMIT = 'a'.repeat(40);

function document(text: string): ComposeMap {
  const read = readComposeDocument(text, new Map());
  if (!read.ok) throw new Error(JSON.stringify(read.issues));
  return read.document;
}

const services = (doc: ComposeMap) => doc.services as Record<string, ComposeMap>;

describe('the services of a repository compose file that build their image', () => {
  it('are tagged in the deployment’s repository after the commit, within a tag’s length', () => {
    expect(serviceImage(`registry.test:5000/acme/site:${COMMIT}`, 'web')).toBe(
      `registry.test:5000/acme/site:${COMMIT}-web`,
    );
    const long = serviceImage(`acme/site:${COMMIT}`, 'w'.repeat(120));
    expect(long).toMatch(new RegExp(`^acme/site:${COMMIT}-[0-9a-f]{16}$`));
    expect(long.split(':')[1].length).toBeLessThanOrEqual(128);
  });

  it('given a file below the root, when rooted, then its contexts are read from the root', () => {
    const text = `services:
  web: {build: .., ports: ["\${PORT:-80}:80"]}
  api:
    build:
      context: ./api
      dockerfile: Dockerfile.prod
      additional_contexts: {shared: ../shared, base: "docker-image://alpine:3.20"}
  job: {build: {dockerfile: Dockerfile.job}}
  cache: {image: "redis:7"}
`;
    const rooted = document(rootedBuildPaths(text, 'deploy/compose.yaml'));
    expect(services(rooted).web.build).toEqual({ context: '.' });
    expect(services(rooted).api.build).toEqual({
      context: 'deploy/api',
      dockerfile: 'Dockerfile.prod',
      additional_contexts: { shared: 'shared', base: 'docker-image://alpine:3.20' },
    });
    expect(services(rooted).job.build).toEqual({
      context: 'deploy',
      dockerfile: 'Dockerfile.job',
    });
    // Interpolation is left for later: the text is the same definition, `$` as written.
    expect(rootedBuildPaths(text, 'deploy/compose.yaml')).toContain('"${PORT:-80}:80"');
  });

  it('given a file at the root or nothing that builds, when rooted, then the text is unchanged', () => {
    const text = 'services: {web: {build: ./web}}\n';
    expect(rootedBuildPaths(text, 'compose.yaml')).toBe(text);
    const plain = 'services: {web: {image: "nginx:1.27"}}\n';
    expect(rootedBuildPaths(plain, 'deploy/compose.yaml')).toBe(plain);
  });

  it('name every build path that leads out of the checkout, and nothing inside it', () => {
    const doc = document(`services:
  a: {build: ../..}
  b: {build: {context: web, dockerfile: ../../../.env}}
  c: {build: {context: ., additional_contexts: ["up=../x", "layout=oci-layout://../../y"]}}
  d: {build: {context: ., cache_to: ["type=local,dest=../../cache"]}}
  e: {build: {context: web, dockerfile: ../Dockerfile, cache_from: ["type=registry,ref=r/a:c"]}}
  f: {build: "https://git.example.test/app.git#main"}
  g: {build: /srv/app}
secrets:
  token: {file: ../../other/.env}
`);
    expect(buildsOutsideCheckout(doc).sort()).toEqual(
      ['../..', '../../.env', '../../cache', '../../other/.env', '../../y', '../x'].sort(),
    );
    // Judging changes nothing.
    expect(services(doc).a.build).toBe('../..');
  });

  it('given builders, then the build document tags them and the run document never builds', () => {
    const doc = document(`services:
  web: {build: ., ports: ["80:80"]}
  db: {image: "postgres:16"}
`);
    const images = new Map([['web', `acme/site:${COMMIT}-web`]]);
    const here = buildDocuments(doc, images, true);
    expect(services(here.build).web).toEqual({
      build: '.',
      image: `acme/site:${COMMIT}-web`,
      ports: ['80:80'],
    });
    expect(services(here.run).web).toEqual({
      image: `acme/site:${COMMIT}-web`,
      pull_policy: 'never',
      ports: ['80:80'],
    });
    expect(services(here.run).db).toEqual({ image: 'postgres:16' });
    // Pushed to the registry: the server pulls it like any image.
    expect(services(buildDocuments(doc, images, false).run).web.pull_policy).toBeUndefined();
    expect(services(doc).web.image).toBeUndefined();
  });
});
