import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { PersonalData } from '../src/privacy/personal-data.js';
import { EVENT_STORE, type EventStore } from '../src/eventstore/event-store.port.js';
import { createToken, signUp, type Account } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const q = (input: unknown) => `?input=${encodeURIComponent(JSON.stringify(input))}`;

/** A tool call's error from an MCP answer, sent as JSON or as one server-sent event. */
function mcpError(text: string): unknown {
  const json = text.trim().startsWith('{')
    ? text
    : text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5))
        .join('');
  const message = JSON.parse(json) as { result?: { structuredContent?: unknown } };
  return message.result?.structuredContent ?? message;
}

describe('procedure-call wire format over HTTP', () => {
  let t: TestApp;
  let account: Account;
  let owner: Record<string, string>;
  let readOnly: Record<string, string>;
  let ownerTokenId: string;

  beforeAll(async () => {
    t = await startTestApp();
    account = await signUp(t.url, 'owner@example.com');
    const full = await createToken(t.url, account.cookie, ['deploy:read', 'deploy:start']);
    owner = { Authorization: `Bearer ${full.token}` };
    ownerTokenId = full.tokenId;
    readOnly = {
      Authorization: `Bearer ${(await createToken(t.url, account.cookie, ['deploy:read'])).token}`,
    };
  });
  afterAll(async () => {
    await t.close();
  });

  function expectErrorShape(body: unknown, code: string): void {
    expect(body).toMatchObject({
      error: { code, message: expect.any(String), data: expect.any(Object) },
    });
  }

  it('answers health without credentials, and with readiness and projection lag to a caller', async () => {
    const anonymous = await request(t.url).get('/trpc/health').expect(200);
    expect(anonymous.body.result.data.json).toEqual({ status: 'ok', version: expect.any(String) });
    const res = await request(t.url).get('/trpc/health').set(owner).expect(200);
    expect(res.body.result.data.json).toMatchObject({
      status: 'ok',
      version: expect.any(String),
      eventStore: { ready: true },
      readStore: { ready: true },
      primaryStore: { ready: true },
      projections: {
        lag: 0,
        items: expect.arrayContaining([expect.objectContaining({ name: 'notes' })]),
      },
    });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reads its own write: a mutation followed at once by a query sees the new state', async () => {
    for (let i = 0; i < 10; i++) {
      const noteId = `n-${i}`;
      const add = await request(t.url)
        .post('/trpc/addNote')
        .set(owner)
        .send({ json: { noteId, text: `hello ${i}` } })
        .expect(200);
      expect(add.body.result.data.json.noteId).toBe(noteId);
      const read = await request(t.url)
        .get(`/trpc/getNote${q({ json: { noteId } })}`)
        .set(owner);
      expect(read.status).toBe(200);
      expect(read.body.result.data.json.note).toMatchObject({
        text: `hello ${i}`,
        addedBy: account.userId,
      });
    }
  });

  it('records the request metadata on the event', async () => {
    const res = await request(t.url)
      .post('/trpc/addNote')
      .set(owner)
      .set('X-Correlation-Id', 'corr-from-client-123')
      .send({ json: { noteId: 'meta-1', text: 'x' } })
      .expect(200);
    const events = t.app.get<EventStore>(EVENT_STORE);
    const [event] = await events.readStream('note-meta-1');
    expect(event.metadata).toEqual({
      actor: { principalId: account.userId, kind: 'user', role: 'owner' },
      authMethod: 'token',
      tokenId: ownerTokenId,
      requestId: res.headers['x-request-id'],
      correlationId: 'corr-from-client-123',
      causationId: res.headers['x-request-id'],
      // Personal data: sealed under the acting user's key, readable until it is erased.
      clientAddress: { pii: 1, subject: `user-${account.userId}`, ct: expect.any(String) },
    });
    expect(await t.app.get(PersonalData).reveal(event.metadata.clientAddress)).toMatch(
      /127\.0\.0\.1/,
    );
  });

  it('treats a missing input as no input and honours superjson meta', async () => {
    await request(t.url).get('/trpc/health').expect(200);
    const res = await request(t.url)
      .post('/trpc/addNote')
      .set(owner)
      .send({
        json: { noteId: 'dated', text: 'remind me', remindAt: '2030-05-06T07:08:09.000Z' },
        meta: { values: { remindAt: ['Date'] } },
      })
      .expect(200);
    expect(res.body.result.data.json.noteId).toBe('dated');
    const read = await request(t.url)
      .get(`/trpc/getNote${q({ json: { noteId: 'dated' } })}`)
      .set(owner);
    expect(read.body.result.data.json.note.remindAt).toBe('2030-05-06T07:08:09.000Z');
    expect(read.body.result.data.meta).toMatchObject({ values: { readAt: ['Date'] } });
  });

  it('refuses a Date field sent as a plain string without meta, naming the field', async () => {
    const res = await request(t.url)
      .post('/trpc/addNote')
      .set(owner)
      .send({ json: { noteId: 'x1', text: 't', remindAt: '2030-05-06T07:08:09.000Z' } })
      .expect(400);
    expectErrorShape(res.body, 'BAD_REQUEST');
    expect(res.body.error.data.issues).toEqual([{ path: 'remindAt', message: expect.any(String) }]);
  });

  it('answers an unknown procedure with 404 and a wrong method with 405', async () => {
    const unknown = await request(t.url).get('/trpc/doesNotExist').expect(404);
    expectErrorShape(unknown.body, 'NOT_FOUND');
    const nested = await request(t.url).get('/trpc/health/extra').expect(404);
    expectErrorShape(nested.body, 'NOT_FOUND');
    const getMutation = await request(t.url).get('/trpc/addNote').set(owner).expect(405);
    expectErrorShape(getMutation.body, 'METHOD_NOT_SUPPORTED');
    expect(getMutation.headers.allow).toBe('POST');
    const postQuery = await request(t.url).post('/trpc/health').send({ json: {} }).expect(405);
    expect(postQuery.headers.allow).toBe('GET');
  });

  it('asks for credentials before validating input, and names bad tokens', async () => {
    const none = await request(t.url)
      .post('/trpc/addNote')
      .send({ json: { bogus: 1 } })
      .expect(401);
    expectErrorShape(none.body, 'AUTH_REQUIRED');
    const unknown = await request(t.url)
      .post('/trpc/addNote')
      .set('Authorization', 'Bearer slw_unknown')
      .send({ json: {} })
      .expect(401);
    expectErrorShape(unknown.body, 'TOKEN_INVALID');
    const notOurs = await request(t.url)
      .get('/trpc/getNote')
      .set('Authorization', 'Basic dXNlcjpwYXNz')
      .expect(401);
    expectErrorShape(notOurs.body, 'TOKEN_INVALID');
    const cookie = await request(t.url)
      .get('/trpc/getNote')
      .set('Cookie', 'slipway_session=whatever')
      .expect(401);
    expectErrorShape(cookie.body, 'SESSION_EXPIRED');
  });

  it('denies a missing scope or role with the required and granted scopes', async () => {
    const res = await request(t.url)
      .post('/trpc/addNote')
      .set(readOnly)
      .send({ json: { noteId: 'v', text: 'v' } })
      .expect(403);
    expectErrorShape(res.body, 'FORBIDDEN');
    expect(res.body.error.data).toMatchObject({
      requiredScopes: ['deploy:start'],
      grantedScopes: ['deploy:read'],
    });
  });

  it.each([
    ['malformed JSON body', '{"json": {', 'application/json'],
    ['a body that is not an envelope', '[1,2,3]', 'application/json'],
    ['a scalar envelope', '"text"', 'application/json'],
    ['extra envelope keys', '{"json":{},"extra":1}', 'application/json'],
    ['a non-JSON content type', 'noteId=1', 'application/x-www-form-urlencoded'],
  ])('answers %s with 400', async (_label, body, type) => {
    const res = await request(t.url)
      .post('/trpc/addNote')
      .set(owner)
      .set('Content-Type', type)
      .send(body)
      .expect(400);
    expectErrorShape(res.body, 'BAD_REQUEST');
  });

  it('lists every invalid field, including unknown ones', async () => {
    const res = await request(t.url)
      .post('/trpc/addNote')
      .set(owner)
      .send({ json: { noteId: '', text: 5, color: 'red' } })
      .expect(400);
    const paths = res.body.error.data.issues.map((i: { path: string }) => i.path).sort();
    expect(paths).toEqual(expect.arrayContaining(['color', 'noteId', 'text']));
  });

  it('refuses query input that is malformed, repeated or too long', async () => {
    await request(t.url).get('/trpc/getNote?input=%7Bnope').set(owner).expect(400);
    await request(t.url)
      .get(`/trpc/getNote${q({ noteId: 'x' })}`)
      .set(owner)
      .expect(400);
    await request(t.url).get('/trpc/getNote?input=1&input=2').set(owner).expect(400);
    await request(t.url)
      .get(`/trpc/getNote${q({ json: { noteId: 'x'.repeat(9000) } })}`)
      .set(owner)
      .expect(400);
    const proc = await request(t.url)
      .get(`/trpc/health${q({ json: { extra: true } })}`)
      .expect(400);
    expect(proc.body.error.message).toMatch(/no input/);
  });

  it.each([
    ['a deeply nested field value', (deep: string) => `{"json":{"noteId":"x","text":${deep}}}`],
    [
      'a deeply nested unknown field',
      (deep: string) => `{"json":{"noteId":"x","text":"t","extra":${deep}}}`,
    ],
    [
      'deeply nested superjson meta',
      (deep: string) => `{"json":{"noteId":"x","text":"t"},"meta":${deep}}`,
    ],
  ])('answers %s with 400, not a crash', async (_label, make) => {
    const deep = '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000);
    const res = await request(t.url)
      .post('/trpc/addNote')
      .set(owner)
      .set('Content-Type', 'application/json')
      .send(make(deep));
    expect(res.status).toBe(400);
    expectErrorShape(res.body, 'BAD_REQUEST');
  });

  it.each([
    ['sign-in body, without credentials', 'post', '/api/auth/login', false],
    ['REST body', 'post', '/api/v1/deploy/compose', true],
    ['MCP tool call', 'mcp', '/mcp', true],
  ] as const)(
    'answers a deeply nested %s with 400, not a crash',
    async (_label, kind, path, auth) => {
      const deep = '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000);
      const body =
        kind === 'mcp'
          ? `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"triggerDeploy","arguments":{"serviceId":${deep}}}}`
          : `{"email":${deep},"password":"x"}`;
      const res = await request(t.url)
        .post(path)
        .set(auth ? owner : {})
        .set('Content-Type', 'application/json')
        .set('Accept', 'application/json, text/event-stream')
        .send(body);
      const error = kind === 'mcp' ? mcpError(res.text) : res.body;
      if (kind !== 'mcp') expect(res.status).toBe(400);
      expectErrorShape(error, 'BAD_REQUEST');
      expect(JSON.stringify(error)).toMatch(/nested deeper/);
    },
  );

  it('answers a body over 1 MiB with 413', async () => {
    const res = await request(t.url)
      .post('/trpc/addNote')
      .set(owner)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ json: { noteId: 'big', text: 'x'.repeat(1024 * 1024 + 10) } }))
      .expect(413);
    expectErrorShape(res.body, 'PAYLOAD_TOO_LARGE');
  });

  it('answers headers over 16 KiB with 413 in the error shape', async () => {
    const res = await fetch(`${t.url}/trpc/health`, { headers: { 'X-Big': 'y'.repeat(20_000) } });
    expect(res.status).toBe(413);
    expectErrorShape(await res.json(), 'PAYLOAD_TOO_LARGE');
  });

  it('turns an unexpected exception into a 500 with a request id and no internals', async () => {
    const res = await request(t.url).get('/trpc/explode').set(owner).expect(500);
    expectErrorShape(res.body, 'INTERNAL_SERVER_ERROR');
    expect(res.body.error.data.requestId).toBe(res.headers['x-request-id']);
    expect(JSON.stringify(res.body)).not.toMatch(/secret|app\.ts|at /);
  });

  it('answers a conflicting command with 409', async () => {
    await request(t.url)
      .post('/trpc/addNote')
      .set(owner)
      .send({ json: { noteId: 'dup', text: 'a' } })
      .expect(200);
    const res = await request(t.url)
      .post('/trpc/addNote')
      .set(owner)
      .send({ json: { noteId: 'dup', text: 'b' } })
      .expect(409);
    expectErrorShape(res.body, 'CONFLICT');
  });

  it('answers unknown routes outside /trpc with 404 in the error shape', async () => {
    const res = await request(t.url).get('/no/such/route').expect(404);
    expectErrorShape(res.body, 'NOT_FOUND');
  });
});
