import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { call, createToken, signUp, type Minted } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface Answer {
  status: number;
  code: string | null;
  challenge: string | null;
}

/** The three surfaces a bearer token reaches: a procedure, a REST route and a stream. */
const SURFACES = ['/trpc/viewer', '/api/v1/me', '/api/v1/projections/stream'] as const;

async function ask(url: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const abort = new AbortController();
  const res = await fetch(`${url}${path}`, { headers, signal: abort.signal });
  let code: string | null = null;
  if (res.headers.get('content-type')?.includes('application/json')) {
    code = ((await res.json()) as { error?: { code: string } }).error?.code ?? null;
  }
  abort.abort(); // a stream that was accepted would go on for ever
  return { status: res.status, code, challenge: res.headers.get('www-authenticate') };
}

describe('bearer tokens through passport-http-bearer (RFC 6750)', () => {
  let t: TestApp;
  let minted: Minted;
  let revoked: Minted;

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    const owner = await signUp(t.url, 'owner@example.com');
    minted = await createToken(t.url, owner.cookie, ['deploy:read', 'members:read']);
    revoked = await createToken(t.url, owner.cookie, ['deploy:read']);
    const revoke = await call(
      t.url,
      'POST',
      'revokeToken',
      { Cookie: owner.cookie },
      {
        tokenId: revoked.tokenId,
      },
    );
    expect(revoke.status).toBe(200);
  });
  afterAll(async () => t.close());

  it('accepts "Bearer <token>" (scheme in any case) on procedures, REST routes and streams', async () => {
    for (const path of SURFACES) {
      for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
        const answer = await ask(t.url, path, { Authorization: `${scheme} ${minted.token}` });
        expect([path, scheme, answer.status, answer.challenge]).toEqual([path, scheme, 200, null]);
      }
    }
  });

  it.each([
    ['two spaces after the scheme', (token: string) => `Bearer  ${token}`],
    ['a tab after the scheme', (token: string) => `Bearer\t${token}`],
    ['something after the token', (token: string) => `Bearer ${token} extra`],
    ['a character outside b64token', (token: string) => `Bearer ${token.slice(0, -1)},`],
    ['no token', () => 'Bearer'],
    ['another scheme', () => 'Basic dXNlcjpwYXNz'],
    ['an empty header', () => ''],
  ])(
    'refuses %s with TOKEN_INVALID and an invalid_token challenge, everywhere',
    async (_, header) => {
      for (const path of SURFACES) {
        const answer = await ask(t.url, path, { Authorization: header(minted.token) });
        expect({ path, ...answer }).toEqual({
          path,
          status: 401,
          code: 'TOKEN_INVALID',
          challenge: 'Bearer realm="slipway", error="invalid_token"',
        });
      }
    },
  );

  it('keeps the verifier codes, with the same challenge', async () => {
    for (const path of SURFACES) {
      const answer = await ask(t.url, path, { Authorization: `Bearer ${revoked.token}` });
      expect({ path, ...answer }).toEqual({
        path,
        status: 401,
        code: 'TOKEN_REVOKED',
        challenge: 'Bearer realm="slipway", error="invalid_token"',
      });
    }
  });

  it('answers a request without credentials with a bare Bearer challenge', async () => {
    for (const path of SURFACES) {
      const answer = await ask(t.url, path, {});
      expect({ path, ...answer }).toEqual({
        path,
        status: 401,
        code: 'AUTH_REQUIRED',
        challenge: 'Bearer realm="slipway"',
      });
    }
  });

  it('never reads a token from the query string', async () => {
    const answer = await ask(t.url, `/trpc/viewer?access_token=${minted.token}`, {});
    expect([answer.status, answer.code]).toEqual([401, 'AUTH_REQUIRED']);
  });
});
