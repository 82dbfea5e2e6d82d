import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EventSource } from 'eventsource';
import request from 'supertest';
import { COMPOSE, data } from './support/deployments.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import {
  ALLOW_LOOPBACK,
  deployAndWait,
  registerLoopbackServer,
  startRunnerFor,
  startSshd,
  type TestSshd,
} from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * A log stream's end as any server-sent-events client meets it: a generic EventSource (the
 * `eventsource` package, as browsers behave) that does not close on `end` is not sent the
 * stream again and again: the end event asks it to wait, and its reconnect is answered 204,
 * which stops it.
 */
describe('a finished stream stays finished for a generic EventSource', () => {
  let sshd: TestSshd;
  let t: TestApp;
  let owner: Record<string, string>;
  let deploymentId: string;

  beforeAll(async () => {
    sshd = await startSshd();
    t = await startTestApp({ notes: false, config: { serverAddressPolicy: ALLOW_LOOPBACK } });
    await startRunnerFor(t, sshd);
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    const serverId = await registerLoopbackServer(t.url, owner, sshd);
    const { serviceId } = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'api',
        environment: 'production',
        serverId,
        imageRepository: 'ghcr.io/acme/api',
        compose: COMPOSE,
      }),
    );
    sshd.setMode('success');
    deploymentId = (
      await deployAndWait<{ status: string; id: string }>(
        t,
        owner,
        serviceId,
        'ghcr.io/acme/api:1.0.0',
      )
    ).id;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
  });

  const path = () => `/api/v1/deployments/${deploymentId}/logs/stream`;

  it('ends with an event whose id is end and which asks for a day before any retry', async () => {
    const res = await request(t.url)
      .get(path())
      .set(owner)
      .buffer(true)
      .parse((r, done) => {
        let body = '';
        r.on('data', (c: Buffer) => (body += c.toString()));
        r.on('end', () => done(null, body));
      });
    const end = (res.body as string).split('\n\n').find((e) => e.includes('event: end')) ?? '';
    expect(end).toMatch(/^id: end$/m);
    expect(end).toMatch(/^retry: 86400000$/m);
    expect(end).toMatch(/^data: \{"status":"succeeded","lastLine":\d+\}$/m);
  });

  it('answers a reconnect after the end with 204 No Content', async () => {
    const again = await request(t.url)
      .get(path())
      .set({ ...owner, 'Last-Event-ID': 'end' });
    expect([again.status, again.text]).toEqual([204, '']);
    // Credentials still come first.
    const anonymous = await request(t.url).get(path()).set('Last-Event-ID', 'end');
    expect(anonymous.status).toBe(401);
  });

  it('a generic EventSource that ignores the end connects once and stops', async () => {
    let connections = 0;
    const source = new EventSource(`${t.url}${path()}`, {
      fetch: (input, init) => {
        connections += 1;
        return fetch(input, { ...init, headers: { ...init?.headers, ...owner } });
      },
    });
    const events: string[] = [];
    source.addEventListener('line', () => events.push('line'));
    source.addEventListener('end', () => events.push('end'));
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const state = source.readyState;
    source.close();
    expect(events.at(-1)).toBe('end');
    expect(events.filter((e) => e === 'end')).toHaveLength(1);
    // The default retry would have reconnected within ~3 s; it was told to wait, and 204 stops it.
    expect(connections).toBe(1);
    expect([EventSource.CLOSED, EventSource.CONNECTING]).toContain(state);
  }, 20_000);
});
