import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { COMPOSE, data } from './support/deployments.js';
import { bearer, call, cookieAuth, signUp } from './support/identity.js';
import { agentToken } from './support/mcp.js';
import { openSse, type SseStream } from './support/sse.js';
import {
  ALLOW_LOOPBACK,
  registerLoopbackServer,
  startSshd,
  type TestSshd,
} from './support/sshd.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const PROJECT = 'tailed-credwatch';

/** The remote `docker compose logs` commands running now (the sshd runs here, as this user). */
function remoteFollowers(): number {
  try {
    const found = execFileSync('pgrep', ['-f', `compose --project-name ${PROJECT} logs`], {
      encoding: 'utf8',
    });
    return found.trim().split('\n').filter(Boolean).length;
  } catch {
    return 0; // pgrep exits 1 when nothing matches
  }
}

async function until(check: () => boolean | Promise<boolean>, attempts = 300): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the condition was never met');
}

/**
 * Container log streams run `docker compose logs -f` over SSH (a real sshd, docker a stand-in
 * that prints a line every 0.2 s): each ends with its credential, stopping the remote command,
 * and a principal and a server may hold only so many at once.
 */
describe('container log streams', () => {
  let sshd: TestSshd;
  let t: TestApp;
  let owner: Record<string, string>;
  let serviceId: string;
  const open: SseStream[] = [];

  const stream = async (auth: Record<string, string>) => {
    const s = await openSse(
      `${t.url}/api/v1/services/${serviceId}/logs/stream?tail=1&seconds=600`,
      auth,
    );
    open.push(s);
    return s;
  };
  /** A refusal, read whole: status, Retry-After and the error body. */
  const refused = async (auth: Record<string, string>) => {
    const res = await fetch(`${t.url}/api/v1/services/${serviceId}/logs/stream?tail=1`, {
      headers: { Accept: 'text/event-stream', ...auth },
    });
    type Refusal = { error: { code: string; data: Record<string, unknown> } };
    // A stream instead (no limit) is never read: its code says so.
    const json = res.headers.get('content-type')?.includes('json');
    if (!json) await res.body?.cancel();
    const body = json
      ? ((await res.json()) as Refusal)
      : { error: { code: `HTTP ${res.status} stream`, data: {} } };
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body };
  };
  const endOf = async (s: SseStream) => {
    const end = await s.waitFor((e) => e.event === 'end');
    await s.ended;
    return JSON.parse(end.data) as unknown;
  };

  beforeAll(async () => {
    sshd = await startSshd();
    t = await startTestApp({
      notes: false,
      config: { serverAddressPolicy: ALLOW_LOOPBACK, serverCheckTimeoutSeconds: 10 },
    });
    Object.assign(t.config.streams, { containerLogsPerPrincipal: 2, containerLogsPerServer: 3 });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    const serverId = await registerLoopbackServer(t.url, owner, sshd);
    serviceId = data<{ serviceId: string }>(
      await call(t.url, 'POST', 'registerService', owner, {
        name: 'tailed',
        environment: 'credwatch',
        serverId,
        imageRepository: 'ghcr.io/acme/api',
        compose: COMPOSE,
      }),
    ).serviceId;
  }, 60_000);
  afterAll(async () => {
    for (const s of open) s.close();
    await t?.close();
    await sshd?.stop();
  });

  it('ends when its token is revoked, and the remote docker compose logs stops', async () => {
    const agent = await agentToken(t.url, owner, 'tailer', 'agent:read-only');
    const s = await stream(bearer(agent.token));
    expect(s.status).toBe(200);
    await s.waitFor((e) => e.event === 'line');
    expect(remoteFollowers()).toBeGreaterThan(0);
    data(await call(t.url, 'POST', 'revokeToken', owner, { tokenId: agent.tokenId }));
    expect(await endOf(s)).toEqual({ reason: 'credential revoked', code: 'TOKEN_REVOKED' });
    await until(() => remoteFollowers() === 0);
  });

  it("ends a deactivated user's stream", async () => {
    const viewer = await signUp(t.url, 'viewer@example.com');
    const s = await stream(cookieAuth(viewer.cookie));
    await s.waitFor((e) => e.event === 'line');
    data(await call(t.url, 'POST', 'deactivateUser', owner, { userId: viewer.userId }));
    expect(await endOf(s)).toEqual({ reason: 'session ended', code: 'SESSION_EXPIRED' });
    await until(() => remoteFollowers() === 0);
  });

  it('refuses a principal past its limit with 429 and Retry-After; a closed or ended stream frees its slot', async () => {
    const agent = await agentToken(t.url, owner, 'greedy', 'agent:read-only');
    const second = data<{ token: string; tokenId: string }>(
      await call(t.url, 'POST', 'generateAgentToken', owner, {
        principalId: agent.principalId,
        tokenName: 'greedy-2',
        expiresInDays: 7,
      }),
    );
    const first = await stream(bearer(agent.token));
    const other = await stream(bearer(second.token));
    expect([first.status, other.status]).toEqual([200, 200]);
    const over = await refused(bearer(agent.token));
    expect(over.status).toBe(429);
    expect(Number(over.retryAfter)).toBeGreaterThan(0);
    expect(over.body.error).toMatchObject({
      code: 'RATE_LIMITED',
      data: { per: 'principal', limit: 2, retryAfterSeconds: Number(over.retryAfter) },
    });

    // Closed by the client: the slot comes back.
    first.close();
    let third: SseStream | null = null;
    await until(async () => {
      const s = await stream(bearer(agent.token));
      if (s.status === 200) third = s;
      else s.close();
      return third !== null;
    }, 100);
    // Ended by the credential: so does its slot.
    data(await call(t.url, 'POST', 'revokeToken', owner, { tokenId: second.tokenId }));
    await endOf(other);
    let fourth: SseStream | null = null;
    await until(async () => {
      const s = await stream(bearer(agent.token));
      if (s.status === 200) fourth = s;
      else s.close();
      return fourth !== null;
    }, 100);
    expect((await refused(bearer(agent.token))).status).toBe(429);
  });

  it('refuses everyone past the limit of the server', async () => {
    // The previous test left two open; the server takes three.
    const one = await agentToken(t.url, owner, 'one', 'agent:read-only');
    const two = await agentToken(t.url, owner, 'two', 'agent:read-only');
    expect((await stream(bearer(one.token))).status).toBe(200);
    const full = await refused(bearer(two.token));
    expect([full.status, full.body.error.code, full.body.error.data.per]).toEqual([
      429,
      'RATE_LIMITED',
      'server',
    ]);
  });
});
