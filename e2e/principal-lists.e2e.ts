import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cookieAuth, signUp } from './support/identity.js';
import { procedureClient, type SlipwayClient } from './support/procedure-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** `members` and `agents` read the same principals collection: each its own kind, paged. */
describe('members and agents: one kind each, oldest first, paged', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  let owner: SlipwayClient;

  beforeAll(async () => {
    t = await startTestApp();
    auth = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    owner = procedureClient(t.url, auth);
    await signUp(t.url, 'bob@example.com');
    await owner.createAgent({ name: 'ci-bot' });
    await owner.createAgent({ name: 'deploy-bot', preset: 'agent:minimal-write' });
  });
  afterAll(() => t.close());

  it('members lists the users and no agent', async () => {
    const { items } = await owner.members({});
    expect(items.map((m) => [m.kind, m.email, m.role])).toEqual([
      ['user', 'owner@example.com', 'owner'],
      ['user', 'bob@example.com', 'viewer'],
    ]);
  });

  it('agents lists the agents and no user', async () => {
    const { items } = await owner.agents({});
    expect(items.map((a) => [a.kind, a.name, a.preset])).toEqual([
      ['agent', 'ci-bot', 'agent:read-only'],
      ['agent', 'deploy-bot', 'agent:minimal-write'],
    ]);
  });

  it('pages by limit and cursor', async () => {
    const first = await owner.agents({ limit: 1 });
    expect(first.items.map((a) => a.name)).toEqual(['ci-bot']);
    expect(first.nextCursor).not.toBeNull();
    const second = await owner.agents({ limit: 1, cursor: first.nextCursor! });
    expect(second.items.map((a) => a.name)).toEqual(['deploy-bot']);
  });

  it('GET /api/v1/members answers what the members procedure answers', async () => {
    const res = await fetch(`${t.url}/api/v1/members?limit=1`, { headers: auth });
    expect(res.status).toBe(200);
    const rest = (await res.json()) as { items: unknown[] };
    expect(rest.items).toEqual((await owner.members({ limit: 1 })).items);
    expect(rest.items).toHaveLength(1);
  });
});
