import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ALL_SCOPES } from '../src/kernel/scopes.js';
import { data, readyService } from './support/deployments.js';
import {
  bearer,
  call,
  cookieAuth,
  createToken,
  signUp,
  type Account,
  type Minted,
} from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

type Auth = Record<string, string>;
type Reply = Awaited<ReturnType<typeof call>>;

/** A refusal as the attacker sees it: FORBIDDEN, and never a token value in the answer. */
function expectForbidden(res: Reply, rule: string): void {
  expect([res.status, res.body.error?.code, res.body.error?.data?.rule]).toEqual([
    403,
    'FORBIDDEN',
    rule,
  ]);
  expect(JSON.stringify(res.body)).not.toMatch(/slw_/);
}

/**
 * Issue 12, escalation: each attack of the black-box report, replayed over HTTP. Every one of
 * them succeeded before the rank, narrowing and two-humans rules.
 */
describe('escalation', () => {
  let t: TestApp;
  let owner: Account;
  let asOwner: Auth;
  let admin: Account;
  let asAdmin: Auth;
  let ownerToken: Minted;

  const agentOf = async (creator: Auth, preset = 'agent:minimal-write') =>
    data<{ principalId: string }>(
      await call(t.url, 'POST', 'createAgent', creator, { name: `bot-${preset}`, preset }),
    ).principalId;
  const mintFor = async (creator: Auth, principalId: string) =>
    data<Minted>(
      await call(t.url, 'POST', 'generateAgentToken', creator, {
        principalId,
        tokenName: 'ci',
        expiresInDays: 7,
      }),
    );
  const stillWorks = async (token: string) =>
    expect((await call(t.url, 'GET', 'viewer', bearer(token))).status).toBe(200);

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = await signUp(t.url, 'owner@example.com');
    asOwner = cookieAuth(owner.cookie);
    admin = await signUp(t.url, 'admin@example.com');
    data(
      await call(t.url, 'POST', 'changeUserRole', asOwner, { userId: admin.userId, role: 'admin' }),
    );
    asAdmin = cookieAuth(admin.cookie);
    ownerToken = await createToken(t.url, owner.cookie, [...ALL_SCOPES], 30);
  });
  afterAll(async () => t.close());

  describe('rank', () => {
    it('refuses an admin rotating the owner’s token (no value handed over), so it cannot become owner', async () => {
      const res = await call(t.url, 'POST', 'rotateToken', asAdmin, {
        tokenId: ownerToken.tokenId,
        overlapMinutes: 0,
      });
      expectForbidden(res, 'token-owner');
      expect(res.body.error.message).toMatch(/given only to that user/);
      await stillWorks(ownerToken.token);
      const promote = await call(t.url, 'POST', 'changeUserRole', asAdmin, {
        userId: admin.userId,
        role: 'owner',
      });
      expectForbidden(promote, 'rank');
    });

    it('refuses an admin revoking the owner’s token', async () => {
      const res = await call(t.url, 'POST', 'revokeToken', asAdmin, {
        tokenId: ownerToken.tokenId,
      });
      expectForbidden(res, 'rank');
      expect(res.body.error.message).toBe(
        'You cannot revoke a token of an owner: owner ranks above admin',
      );
      await stillWorks(ownerToken.token);
    });

    it('refuses an admin invalidating, deactivating, demoting or erasing the owner', async () => {
      const target = { userId: owner.userId };
      expectForbidden(
        await call(t.url, 'POST', 'invalidatePrincipal', asAdmin, { principalId: owner.userId }),
        'rank',
      );
      expectForbidden(await call(t.url, 'POST', 'deactivateUser', asAdmin, target), 'rank');
      expectForbidden(
        await call(t.url, 'POST', 'changeUserRole', asAdmin, { ...target, role: 'viewer' }),
        'rank',
      );
      // Erasure is the owner's alone: the guard refuses the admin before any rank is compared.
      const erase = await call(t.url, 'POST', 'eraseSubjectData', asAdmin, target);
      expect([erase.status, erase.body.error.code]).toEqual([403, 'FORBIDDEN']);
      await stillWorks(ownerToken.token);
    });

    it('refuses an admin minting, rotating or revoking tokens of an agent the owner created', async () => {
      const bot = await agentOf(asOwner);
      const botToken = await mintFor(asOwner, bot);
      const mint = await call(t.url, 'POST', 'generateAgentToken', asAdmin, {
        principalId: bot,
        tokenName: 'stolen',
        expiresInDays: 7,
      });
      expectForbidden(mint, 'rank');
      expect(mint.body.error.message).toMatch(/agent created by an owner: owner ranks above admin/);
      expectForbidden(
        await call(t.url, 'POST', 'rotateToken', asAdmin, {
          tokenId: botToken.tokenId,
          overlapMinutes: 0,
        }),
        'rank',
      );
      expectForbidden(
        await call(t.url, 'POST', 'revokeToken', asAdmin, { tokenId: botToken.tokenId }),
        'rank',
      );
      expectForbidden(
        await call(t.url, 'POST', 'invalidatePrincipal', asAdmin, { principalId: bot }),
        'rank',
      );
      await stillWorks(botToken.token);
    });

    it('never hands a user’s new token value to another human, not even to the owner', async () => {
      const adminToken = await createToken(t.url, admin.cookie, ['deploy:read'], 7);
      expectForbidden(
        await call(t.url, 'POST', 'rotateToken', asOwner, {
          tokenId: adminToken.tokenId,
          overlapMinutes: 0,
        }),
        'token-owner',
      );
      // Downward, the owner may still cut the admin's token off.
      data(await call(t.url, 'POST', 'revokeToken', asOwner, { tokenId: adminToken.tokenId }));
    });

    it('lets an admin manage its own agent and tokens', async () => {
      const bot = await agentOf(asAdmin);
      const botToken = await mintFor(asAdmin, bot);
      const rotated = data<{ token: string }>(
        await call(t.url, 'POST', 'rotateToken', asAdmin, {
          tokenId: botToken.tokenId,
          overlapMinutes: 0,
        }),
      );
      await stillWorks(rotated.token);
      const own = await createToken(t.url, admin.cookie, ['deploy:read'], 7);
      data(
        await call(t.url, 'POST', 'rotateToken', asAdmin, {
          tokenId: own.tokenId,
          overlapMinutes: 0,
        }),
      );
    });
  });

  describe('narrowing: a token only narrows', () => {
    let manageOnly: Auth;

    beforeAll(async () => {
      manageOnly = bearer((await createToken(t.url, owner.cookie, ['tokens:manage'], 7)).token);
    });

    it('refuses a tokens:manage token creating a token with audit:read, members:manage, security:manage', async () => {
      const res = await call(t.url, 'POST', 'createToken', manageOnly, {
        tokenName: 'wider',
        scopes: ['audit:read', 'members:manage', 'security:manage'],
        expiresInDays: 7,
      });
      expectForbidden(res, 'narrowing');
      expect(res.body.error.data).toMatchObject({
        requiredScopes: ['audit:read', 'members:manage', 'security:manage'],
        grantedScopes: ['tokens:manage'],
        refusedScopes: ['audit:read', 'members:manage', 'security:manage'],
      });
    });

    it('refuses a tokens:manage token rotating a wider token of the same principal', async () => {
      const res = await call(t.url, 'POST', 'rotateToken', manageOnly, {
        tokenId: ownerToken.tokenId,
        overlapMinutes: 0,
      });
      expectForbidden(res, 'narrowing');
      expect(res.body.error.data.grantedScopes).toEqual(['tokens:manage']);
      await stillWorks(ownerToken.token);
    });

    it('refuses a tokens:manage token minting an agent:full token, by default or by naming scopes', async () => {
      const full = await agentOf(asOwner, 'agent:full');
      const byDefault = await call(t.url, 'POST', 'generateAgentToken', manageOnly, {
        principalId: full,
        tokenName: 'full',
        expiresInDays: 7,
      });
      expectForbidden(byDefault, 'narrowing');
      expect(byDefault.body.error.data.refusedScopes).toContain('deploy:start');
      const named = await call(t.url, 'POST', 'generateAgentToken', manageOnly, {
        principalId: full,
        tokenName: 'full',
        expiresInDays: 7,
        scopes: ['deploy:start', 'server:write'],
      });
      expectForbidden(named, 'narrowing');
    });

    it('refuses creating an agent:full agent with a token that lacks its preset', async () => {
      const managers = bearer(
        (await createToken(t.url, owner.cookie, ['tokens:manage', 'members:manage'], 7)).token,
      );
      const res = await call(t.url, 'POST', 'createAgent', managers, {
        name: 'full-bot',
        preset: 'agent:full',
      });
      expectForbidden(res, 'narrowing');
      expect(res.body.error.data.refusedScopes).toEqual(
        expect.arrayContaining(['deploy:start', 'server:write', 'service:write']),
      );
      const agents = data<{ items: { name: string }[] }>(
        await call(t.url, 'GET', 'agents', asOwner, { limit: 100 }),
      );
      expect(agents.items.map((a) => a.name)).not.toContain('full-bot');
    });

    it('refuses granting a role wider than the presented token', async () => {
      const viewer = await signUp(t.url, 'viewer@example.com');
      const membersOnly = bearer(
        (await createToken(t.url, owner.cookie, ['members:manage'], 7)).token,
      );
      const res = await call(t.url, 'POST', 'changeUserRole', membersOnly, {
        userId: viewer.userId,
        role: 'admin',
      });
      expectForbidden(res, 'narrowing');
      expect(res.body.error.data.refusedScopes).toContain('security:manage');
    });

    it('still creates what lies within the token', async () => {
      const both = bearer(
        (await createToken(t.url, owner.cookie, ['tokens:manage', 'deploy:read'], 7)).token,
      );
      const minted = data<{ token: string; scopes: string[] }>(
        await call(t.url, 'POST', 'createToken', both, {
          tokenName: 'reader',
          scopes: ['deploy:read'],
          expiresInDays: 7,
        }),
      );
      expect(minted.scopes).toEqual(['deploy:read']);
    });
  });

  describe('two humans', () => {
    let serviceId: string;
    const request = async (token: string) =>
      data<{ approvalId: string }>(
        await call(t.url, 'POST', 'requestApproval', bearer(token), {
          action: 'deploy',
          serviceId,
          imageTag: 'ghcr.io/acme/api:9.9.9',
          reason: 'release through the agent, please review',
        }),
      ).approvalId;

    beforeAll(async () => {
      ({ serviceId } = await readyService(t.url, asOwner, { approvalRule: 'agents' }));
    });

    it('refuses the owner approving (or rejecting) what his own agent asked; another admin approves', async () => {
      const bot = await agentOf(asOwner);
      const approvalId = await request((await mintFor(asOwner, bot)).token);
      for (const name of ['approveRequest', 'rejectRequest']) {
        const res = await call(t.url, 'POST', name, asOwner, { approvalId });
        expectForbidden(res, 'two-humans');
      }
      const approved = data<{ status: string; deploymentId: string }>(
        await call(t.url, 'POST', 'approveRequest', asAdmin, { approvalId }),
      );
      expect(approved.status).toBe('approved');
      expect(approved.deploymentId).toEqual(expect.any(String));
    });

    it('refuses the human who minted the agent’s token, even when someone else created the agent', async () => {
      const bot = await agentOf(asAdmin);
      const approvalId = await request((await mintFor(asOwner, bot)).token);
      expectForbidden(
        await call(t.url, 'POST', 'approveRequest', asOwner, { approvalId }),
        'two-humans',
      );
      expectForbidden(
        await call(t.url, 'POST', 'approveRequest', asAdmin, { approvalId }),
        'two-humans',
      );
      const third = cookieAuth((await signUp(t.url, 'operator@example.com')).cookie);
      const operatorId = data<{ principal: { id: string } }>(
        await call(t.url, 'GET', 'viewer', third),
      ).principal.id;
      data(
        await call(t.url, 'POST', 'changeUserRole', asOwner, {
          userId: operatorId,
          role: 'operator',
        }),
      );
      expect(
        data<{ status: string }>(await call(t.url, 'POST', 'approveRequest', third, { approvalId }))
          .status,
      ).toBe('approved');
    });
  });
});
