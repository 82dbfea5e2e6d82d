import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { EVENT_STORE, type EventStore } from '../src/eventstore/event-store.port.js';
import { PASSWORD, call, cookieAuth, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * JSON can carry what UTF-8 cannot: a lone UTF-16 surrogate written as an escape (`\ud800`).
 * Such a string is not text: it cannot be stored, hashed as sent, mailed or shown. Every input
 * is refused with 400 naming the field, wherever it comes in, never a 500.
 */
describe('input text must be well-formed Unicode', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  const UNKNOWN = '00000000-0000-4000-8000-000000000000';

  beforeAll(async () => {
    t = await startTestApp({ notes: false, config: { openSignup: true } });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
  });
  afterAll(async () => t?.close());

  /** A JSON text with the escapes left as written (JSON.stringify would never produce them). */
  const raw = (method: 'post' | 'put', path: string, json: string, auth = owner) =>
    request(t.url)[method](path).set(auth).set('Content-Type', 'application/json').send(json);
  const procedure = (name: string, input: string) =>
    raw('post', `/trpc/${name}`, `{"json":${input}}`);

  const expectRefused = (res: request.Response, path: string) => {
    expect([res.status, res.body.error?.code]).toEqual([400, 'BAD_REQUEST']);
    expect(res.body.error.data.issues).toEqual([
      { path, message: expect.stringMatching(/well-formed Unicode/) },
    ]);
  };

  it('refuses a lone surrogate in the public sign-up, login and password reset', async () => {
    const before = await t.app.get<EventStore>(EVENT_STORE).headPosition();
    expectRefused(
      await raw(
        'post',
        '/api/auth/sign-up',
        `{"email":"eve\\ud800@example.com","password":"${PASSWORD}","name":"Eve"}`,
        {},
      ),
      'email',
    );
    expectRefused(
      await raw(
        'post',
        '/api/auth/sign-up',
        `{"email":"eve@example.com","password":"${PASSWORD}","name":"Eve \\udc00"}`,
        {},
      ),
      'name',
    );
    expectRefused(
      await raw(
        'post',
        '/api/auth/login',
        `{"email":"owner\\ud800@example.com","password":"${PASSWORD}"}`,
        {},
      ),
      'email',
    );
    expectRefused(
      await raw(
        'post',
        '/api/auth/login',
        `{"email":"owner@example.com","password":"\\ud800"}`,
        {},
      ),
      'password',
    );
    expectRefused(
      await raw('post', '/api/auth/request-password-reset', `{"email":"a\\udbff@example.com"}`, {}),
      'email',
    );
    expectRefused(
      await raw(
        'post',
        '/api/auth/reset-password',
        `{"token":"${'a'.repeat(40)}","newPassword":"long enough \\ud800 password"}`,
        {},
      ),
      'newPassword',
    );
    // Nothing was recorded but the refusals.
    const written = await t.app.get<EventStore>(EVENT_STORE).readAll(before + 1n, 100);
    expect(written.filter((e) => e.stream !== 'audit-refusals').map((e) => e.type)).toEqual([]);
  });

  it('refuses a lone surrogate in inviteMember, a service name and an agent name', async () => {
    expectRefused(
      await procedure('inviteMember', '{"email":"new\\ud800@example.com","role":"viewer"}'),
      'email',
    );
    expectRefused(
      await procedure(
        'registerService',
        `{"name":"api\\ud800","environment":"production","serverId":"${UNKNOWN}","imageRepository":"ghcr.io/acme/api","compose":"services: {}"}`,
      ),
      'name',
    );
    expectRefused(await procedure('createAgent', '{"name":"bot \\udfff"}'), 'name');
  });

  it('refuses one in a nested field, a key, a query input, a REST body and the MCP endpoint', async () => {
    expectRefused(
      await procedure(
        'registerService',
        `{"name":"api","environment":"production","serverId":"${UNKNOWN}","imageRepository":"ghcr.io/acme/api","compose":"services: {}","env":[{"name":"A","value":"x\\ud800"}]}`,
      ),
      'env.0.value',
    );
    expectRefused(await procedure('createAgent', '{"name":"bot","\\ud800":1}'), '\\ud800');
    const query = await request(t.url)
      .get(`/trpc/invites?input=${encodeURIComponent('{"json":{"cursor":"\\ud800"}}')}`)
      .set(owner);
    expectRefused(query, 'cursor');
    expectRefused(
      await raw('post', `/api/v1/servers/${UNKNOWN}/images/pull`, '{"reference":"nginx\\ud800"}'),
      'reference',
    );
    // A path segment cannot carry one at all (percent-encoding is UTF-8): refused as undecodable.
    const param = await request(t.url).get('/api/v1/services/%ED%A0%80/status').set(owner);
    expect([param.status, param.body.error.code]).toEqual([400, 'BAD_REQUEST']);
    const mcp = await request(t.url)
      .post('/mcp')
      .set('Content-Type', 'application/json')
      .set('Accept', 'application/json, text/event-stream')
      .send('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x\\ud800"}}');
    expectRefused(mcp, 'params.name');
  });

  it('accepts surrogate pairs (an emoji) and answers the same input without them as before', async () => {
    const res = await procedure('createAgent', '{"name":"deploy bot \\ud83d\\ude80"}');
    expect(res.status).toBe(200);
    expect(res.body.result.data.json).toMatchObject({ name: 'deploy bot 🚀' });
    const list = await call(t.url, 'GET', 'agents', owner);
    expect(JSON.stringify(list.body)).toContain('deploy bot 🚀');
  });
});
