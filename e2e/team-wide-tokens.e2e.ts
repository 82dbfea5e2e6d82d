import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import request from 'supertest';
import type { ContractProcedure } from '../contract/build-contract.js';
import { capabilitiesOf } from '../src/access/capabilities.js';
import { data } from './support/deployments.js';
import { bearer, call, cookieAuth, signUp } from './support/identity.js';
import { MATRIX_INPUTS } from './support/matrix-inputs.js';
import { mcpClient, toolError } from './support/mcp.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const contract = JSON.parse(
  readFileSync(new URL('../contract/api-contract.json', import.meta.url), 'utf8'),
) as { procedures: ContractProcedure[] };

/** Acts on the team as a whole: judged in no project, lists nothing by project, not one's own. */
const teamWide = contract.procedures.filter(
  (p) => p.auth !== 'public' && !p.project && !p.projectList && !p.ownOnly,
);

/**
 * A token limited to projects reaches only those: every procedure that acts on the team as a
 * whole (its members and roles, the audit trail, drains, notification channels, S3 targets,
 * identity providers, policies, other people's tokens) refuses it, on /trpc, /api/v1 and MCP,
 * while the same token not limited is admitted; the caller's own calls and the project lists stay
 * open to it.
 */
describe('tokens limited to projects and the team as a whole', () => {
  let t: TestApp;
  let limited: string;
  let unlimited: string;

  beforeAll(async () => {
    t = await startTestApp();
    const owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    const scopes = [...capabilitiesOf({ kind: 'user', role: 'owner' })].slice(0, 32);
    const mint = async (projects?: string[]) =>
      data<{ token: string }>(
        await call(t.url, 'POST', 'createToken', owner, {
          tokenName: projects ? 'default only' : 'everywhere',
          scopes,
          expiresInDays: 1,
          ...(projects ? { projects } : {}),
        }),
      ).token;
    limited = await mint(['default']);
    unlimited = await mint();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses every team-wide procedure to a token limited to projects', async () => {
    expect(teamWide.map((p) => p.name)).toEqual(
      expect.arrayContaining(['auditTrail', 'changeUserRole', 'configureDrain', 'members']),
    );
    const outcomes: string[] = [];
    for (const p of teamWide) {
      const res = await call(t.url, p.method, p.name, bearer(limited), MATRIX_INPUTS[p.name]);
      const rule = res.body.error?.data?.rule as string | undefined;
      outcomes.push(`${p.name}: ${res.status} ${rule ?? ''}`.trim());
    }
    // Session-only procedures refuse every token first; the rest refuse this one for its projects.
    for (const line of outcomes) expect(line).toMatch(/: 403 (token-projects|session-only)$/);
    expect(outcomes.filter((l) => l.endsWith('token-projects')).length).toBeGreaterThan(30);
  });

  it('admits the same calls from the same token not limited', async () => {
    const trail = await call(t.url, 'GET', 'auditTrail', bearer(unlimited), { limit: 5 });
    expect(trail.status).toBe(200);
    const members = await request(t.url).get('/api/v1/members').set(bearer(unlimited));
    expect(members.status).toBe(200);
  });

  it("keeps the caller's own calls and the project lists open to it", async () => {
    for (const name of ['viewer', 'services', 'servers', 'recentDeployments', 'projects']) {
      const res = await call(t.url, 'GET', name, bearer(limited), MATRIX_INPUTS[name]);
      expect([name, res.status]).toEqual([name, 200]);
    }
    expect((await request(t.url).get('/api/v1/me').set(bearer(limited))).status).toBe(200);
    const own = await call(t.url, 'POST', 'createToken', bearer(limited), {
      tokenName: 'narrower',
      scopes: ['deploy:read'],
      expiresInDays: 1,
      projects: ['default'],
    });
    expect(own.status).toBe(200);
  });

  it('refuses its team-wide REST routes the same way', async () => {
    for (const path of ['/api/v1/members', '/api/v1/audit/export']) {
      const res = await request(t.url).get(path).set(bearer(limited));
      expect([path, res.status, res.body.error?.data?.rule]).toEqual([path, 403, 'token-projects']);
    }
  });

  it('shows it no team-wide MCP tool, and refuses one called by name', async () => {
    const client = await mcpClient(t.url, limited);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['viewer', 'services', 'triggerDeploy']));
      for (const p of teamWide) expect(names).not.toContain(p.name);
      const denied = toolError(await client.callTool({ name: 'auditTrail', arguments: {} }));
      expect(denied).toMatchObject({ code: 'FORBIDDEN', data: { rule: 'token-projects' } });
    } finally {
      await client.close();
    }
  });
});
