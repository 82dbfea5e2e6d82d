import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import { createToken, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { typeCheck } from './support/type-check.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const documentText = readFileSync(join(root, 'contract/openapi.json'), 'utf8');

/**
 * Calls written from the API guide (docs/api.md), as a TypeScript user writes them against a
 * client generated from the document. The `@ts-expect-error` lines must be errors: they prove
 * the generated types say something.
 */
const CALLS = `import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000' });
const headers = { authorization: 'Bearer slw_example' };
const id = '00000000-0000-4000-8000-000000000000';

export async function calls(context: Blob, tarball: Blob) {
  await client.GET('/api/v1/me', { headers });
  await client.GET('/api/v1/members', { params: { query: { limit: 20 } }, headers });
  await client.GET('/api/v1/audit/export', {
    params: { query: { format: 'csv', from: '2026-01-01', to: '1200' } },
    headers,
    parseAs: 'text',
  });
  await client.GET('/api/v1/services/{id}/status', { params: { path: { id } }, headers });
  await client.GET('/api/v1/services/{id}/logs/stream', {
    params: { path: { id }, query: { tail: 100, follow: false } },
    headers,
    parseAs: 'stream',
  });
  await client.GET('/api/v1/deployments/{id}/logs/stream', {
    params: { path: { id }, query: { after: 10 }, header: { 'Last-Event-ID': '10' } },
    headers,
    parseAs: 'stream',
  });
  const upload = await client.POST('/api/v1/deploy/uploads', { headers });
  await client.PUT('/api/v1/deploy/uploads/{id}', {
    params: { path: { id } },
    body: context,
    headers: { ...headers, 'content-type': 'application/gzip' },
  });
  await client.POST('/api/v1/servers/{id}/images/pull', {
    params: { path: { id } },
    body: { reference: 'nginx:1.27' },
    headers,
  });
  await client.PUT('/api/v1/servers/{id}/images', { params: { path: { id } }, body: tarball, headers });
  await client.DELETE('/api/v1/servers/{id}/images', {
    params: { path: { id }, query: { reference: 'nginx:1.27' } },
    headers,
  });
  await client.POST('/api/v1/hooks/{hookId}', { params: { path: { hookId: id } }, body: { ref: 'refs/tags/v1' } });
  await client.POST('/api/v1/hooks/{hookId}/{token}', {
    params: { path: { hookId: id, token: 'abc' } },
    body: { push_data: { tag: '1.0.0' } },
  });
  // @ts-expect-error limit is a number
  await client.GET('/api/v1/members', { params: { query: { limit: 'many' } }, headers });
  // @ts-expect-error a service's status needs its id
  await client.GET('/api/v1/services/{id}/status', { headers });
  // @ts-expect-error no such route
  await client.GET('/api/v1/nothing', { headers });
  return upload.response.status;
}
`;

/** The OpenAPI document as clients use it: linted, turned into a typed client, called. */
describe('the OpenAPI document makes a working typed client', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    dir = mkdtempSync(join(tmpdir(), 'slipway-openapi-client-'));
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes a linter’s recommended rules (only the license is absent: there is none)', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: documentText,
      absoluteRef: join(root, 'contract/openapi.json'),
      config,
    });
    const found = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`);
    expect(found.filter((p) => !p.startsWith('warn info-license'))).toEqual([]);
  });

  it('generates types (openapi-typescript) that calls from the guide type-check against', async () => {
    const ast = await openapiTS(JSON.parse(documentText) as Parameters<typeof openapiTS>[0]);
    writeFileSync(join(dir, 'schema.d.ts'), astToString(ast));
    writeFileSync(join(dir, 'calls.ts'), CALLS);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['es2022', 'dom'],
          skipLibCheck: true,
        },
        files: ['calls.ts'],
      }),
    );
    expect(typeCheck(dir)).toBe('');
  }, 60_000);

  it('says the statuses the routes answer with', async () => {
    const { cookie } = await signUp(t.url, 'owner@example.com');
    const { token } = await createToken(t.url, cookie, ['deploy:start', 'members:read'], 1);
    const headers = { authorization: `Bearer ${token}` };
    const paths = (
      JSON.parse(documentText) as {
        paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      }
    ).paths;
    const opened = await fetch(`${t.url}/api/v1/deploy/uploads`, { method: 'POST', headers });
    expect(opened.status).toBe(201);
    expect(Object.keys(paths['/api/v1/deploy/uploads'].post.responses)).toContain('201');
    const members = await fetch(`${t.url}/api/v1/members?limit=5`, { headers });
    expect(members.status).toBe(200);
    const refused = await fetch(`${t.url}/api/v1/members?limit=500`, { headers });
    expect(refused.status).toBe(400);
    expect(Object.keys(paths['/api/v1/deploy/compose'].post.responses)).toContain('202');
    expect(Object.keys(paths['/api/v1/hooks/{hookId}'].post.responses)).toContain('202');
  });
});
