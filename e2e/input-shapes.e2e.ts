import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { call, cookieAuth, signUp } from './support/identity.js';
import { MATRIX_INPUTS } from './support/matrix-inputs.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const NOBODY = '00000000-0000-4000-8000-000000000000';
const CONTROLS = [
  ['ESC sequence', 'deploy\u001b[2J\u001b]0;owned\u0007'],
  ['newline', 'line one\nline two'],
  ['C1 control', 'next\u0085line'],
  ['DEL', 'del\u007f'],
  ['bidi override', 'report\u202etxt.exe'],
  ['bidi isolate', 'a\u2066b\u2069'],
] as const;

function issuePaths(body: { error?: { data?: { issues?: { path: string }[] } } }): string[] {
  return (body.error?.data?.issues ?? []).map((i) => i.path);
}

describe('one shape per field: image repositories and names', () => {
  let t: TestApp;
  let owner: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
  });
  afterAll(async () => {
    await t.close();
  });

  it('registerService checks imageRepository as updateService does', async () => {
    const base = MATRIX_INPUTS.registerService as Record<string, unknown>;
    for (const imageRepository of [
      'ghcr.io/acme/api"; rm -rf /"',
      `ghcr.io/${'a'.repeat(5000)}`,
      'ghcr.io/acme/api:1.0',
    ]) {
      for (const name of ['registerService', 'updateService'] as const) {
        const input =
          name === 'registerService'
            ? { ...base, imageRepository }
            : { serviceId: NOBODY, imageRepository };
        const res = await call(t.url, 'POST', name, owner, input);
        expect([name, res.status, res.body.error?.code]).toEqual([name, 400, 'BAD_REQUEST']);
        expect(issuePaths(res.body)).toContain('imageRepository');
      }
    }
  });

  it('registerService requires its server, image repository and compose', async () => {
    const res = await call(t.url, 'POST', 'registerService', owner, {
      name: 'bare',
      environment: 'production',
    });
    expect(res.status).toBe(400);
    expect(new Set(issuePaths(res.body))).toEqual(
      new Set(['serverId', 'imageRepository', 'compose']),
    );
  });

  it.each(CONTROLS)(
    'refuses a name with a %s (agents, tokens, servers, services)',
    async (_, bad) => {
      const attempts: [string, unknown, string][] = [
        ['createAgent', { name: bad }, 'name'],
        ['createToken', { tokenName: bad, scopes: ['deploy:read'] }, 'tokenName'],
        [
          'generateAgentToken',
          { principalId: NOBODY, tokenName: bad, expiresInDays: 1 },
          'tokenName',
        ],
        ['registerServer', { ...(MATRIX_INPUTS.registerServer as object), name: bad }, 'name'],
        ['registerService', { ...(MATRIX_INPUTS.registerService as object), name: bad }, 'name'],
      ];
      for (const [procedure, input, path] of attempts) {
        const res = await call(t.url, 'POST', procedure, owner, input);
        expect([procedure, res.status, res.body.error?.code]).toEqual([
          procedure,
          400,
          'BAD_REQUEST',
        ]);
        expect([procedure, issuePaths(res.body)]).toEqual([procedure, [path]]);
      }
      const signUpRes = await request(t.url)
        .post('/api/auth/sign-up')
        .send({ email: 'ctl@example.com', password: 'correct horse battery staple', name: bad });
      expect(signUpRes.status).toBe(400);
      expect(issuePaths(signUpRes.body)).toEqual(['name']);
    },
  );

  it('still takes names in any script, with spaces and emoji', async () => {
    const res = await call(t.url, 'POST', 'createAgent', owner, { name: 'Déploiement 日本 🚀' });
    expect(res.status).toBe(200);
    expect(res.body.result.data.json.name).toBe('Déploiement 日本 🚀');
  });
});
