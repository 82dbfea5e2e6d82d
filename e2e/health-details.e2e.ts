import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  bearer,
  call,
  cookieAuth,
  createToken,
  memberWithRole,
  signUp,
} from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const DETAILS = {
  status: 'ok',
  version: expect.any(String),
  uptimeSeconds: expect.any(Number),
  eventStore: { ready: true, headPosition: expect.any(Number) },
  readStore: { ready: true },
  primaryStore: { ready: true },
  projections: { lag: expect.any(Number), items: expect.any(Array) },
};

describe('health: status and version for anyone, details for callers', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let viewer: Record<string, string>;
  let narrowToken: string;
  let revokedToken: string;

  const health = async (headers: Record<string, string>) => {
    const res = await call(t.url, 'GET', 'health', headers);
    expect(res.status).toBe(200);
    return res.body.result.data.json as Record<string, unknown>;
  };

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    const account = await signUp(t.url, 'owner@example.com');
    owner = cookieAuth(account.cookie);
    viewer = await memberWithRole(t.url, owner, 'viewer@example.com', 'viewer');
    narrowToken = (await createToken(t.url, account.cookie, ['service:read'])).token;
    const doomed = await createToken(t.url, account.cookie, ['deploy:read']);
    await call(t.url, 'POST', 'revokeToken', owner, { tokenId: doomed.tokenId });
    revokedToken = doomed.token;
  });
  afterAll(async () => t.close());

  it('tells an anonymous caller the status and version only', async () => {
    expect(await health({})).toEqual({ status: 'ok', version: expect.any(String) });
  });

  it('treats a refused credential as no credential (the public answer, never an error)', async () => {
    for (const headers of [
      bearer(revokedToken),
      bearer('slw_' + 'A'.repeat(49)),
      { Authorization: 'Bearer  two-spaces' },
      cookieAuth('slipway_session=unknown'),
    ]) {
      expect(Object.keys(await health(headers)).sort()).toEqual(['status', 'version']);
    }
  });

  it('gives the details to any authenticated principal: any role, any token', async () => {
    for (const headers of [owner, viewer, bearer(narrowToken)]) {
      expect(await health(headers)).toEqual(DETAILS);
    }
  });
});
