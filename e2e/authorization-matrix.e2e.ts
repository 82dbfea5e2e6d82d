import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { ApiContract, ContractProcedure } from '../contract/build-contract.js';
import { capabilitiesOf } from '../src/access/capabilities.js';
import { ProcedureRegistry } from '../src/rpc/procedure-registry.js';
import { bearer, call, cookieAuth, createToken, signUp } from './support/identity.js';
import { MATRIX_GRANTS, MATRIX_INPUTS } from './support/matrix-inputs.js';
import {
  freshTarget,
  RANK_TARGETED,
  RANKS,
  TARGET_KINDS,
  type Rank,
  type Target,
} from './support/rank-targets.js';
import { DAY, TestClock } from './support/test-clock.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const contract = JSON.parse(
  readFileSync(new URL('../contract/api-contract.json', import.meta.url), 'utf8'),
) as ApiContract;

type Caller = {
  label: string;
  auth: Record<string, string>;
  allowedFor(p: ContractProcedure): boolean;
};

const PRESETS = ['agent:read-only', 'agent:minimal-write', 'agent:full'] as const;

function permits(p: ContractProcedure, role: string, scopes: readonly string[]): boolean {
  return (
    p.auth === 'public' || (p.roles.includes(role) && p.scopes.every((s) => scopes.includes(s)))
  );
}

/** A principal that can be handed tokens of any narrower shape. */
type TokenHolder = {
  label: string;
  role: string;
  capabilities: readonly string[];
  mint(scopes: readonly string[]): Promise<Record<string, string>>;
};

/** Once per holder and scope set: many procedures share a scope. */
function cachedMint(mint: (scopes: readonly string[]) => Promise<string>) {
  const minted = new Map<string, Promise<string>>();
  return async (scopes: readonly string[]) => {
    const key = [...scopes].sort().join(' ');
    if (!minted.has(key)) minted.set(key, mint(scopes));
    return bearer(await minted.get(key)!);
  };
}

type Outcome = 'allowed' | 'guard' | 'rank' | 'token-owner';

/**
 * The rank rule as the matrix expects it: the guard first (roles), then a token value never to
 * another human, then nobody acts upward. Null: the procedure does not take that kind of target.
 */
function expectedOutcome(
  p: ContractProcedure,
  targeting: (typeof RANK_TARGETED)[string],
  callerRole: Rank,
  kind: Target['kind'],
): Outcome | null {
  const isAgent = kind.startsWith('agent');
  if (targeting.takes !== 'any' && targeting.takes !== (isAgent ? 'agent' : 'user')) return null;
  if (!p.roles.includes(callerRole)) return 'guard';
  if (targeting.handsOverValue && !isAgent) return 'token-owner';
  const targetRank = (isAgent ? kind.slice('agent of '.length) : kind) as Rank;
  return RANKS.indexOf(callerRole) >= RANKS.indexOf(targetRank) ? 'allowed' : 'rank';
}

function outcomeOf(res: {
  status: number;
  body: { error?: { code: string; data?: { rule?: string } } };
}): string {
  if (res.status === 401) return `401 ${res.body.error?.code}`;
  if (res.status !== 403) return 'allowed';
  const rule = res.body.error?.data?.rule;
  return rule === 'rank' || rule === 'token-owner' ? rule : rule ? `403 ${rule}` : 'guard';
}

describe('authorization matrix, generated from contract/api-contract.json', () => {
  const clock = new TestClock();
  let t: TestApp;
  const callers: Caller[] = [];
  const failing: { label: string; auth: Record<string, string>; code: string }[] = [];
  let expiring: Record<string, string>;
  let ownerCookie: string;
  let adminAuth: Record<string, string>;
  const holders: TokenHolder[] = [];

  beforeAll(async () => {
    t = await startTestApp({ notes: false, clock });
    const owner = await signUp(t.url, 'owner@example.com');
    ownerCookie = owner.cookie;
    const asOwner = cookieAuth(owner.cookie);
    callers.push({
      label: 'session owner',
      auth: asOwner,
      allowedFor: (p) => permits(p, 'owner', capabilitiesOf({ kind: 'user', role: 'owner' })),
    });
    for (const role of ['admin', 'operator', 'viewer'] as const) {
      const member = await signUp(t.url, `${role}@example.com`);
      if (role !== 'viewer') {
        const res = await call(t.url, 'POST', 'changeUserRole', asOwner, {
          userId: member.userId,
          role,
        });
        expect(res.status).toBe(200);
      }
      callers.push({
        label: `session ${role}`,
        auth: cookieAuth(member.cookie),
        allowedFor: (p) => permits(p, role, capabilitiesOf({ kind: 'user', role })),
      });
      if (role === 'admin') adminAuth = cookieAuth(member.cookie);
    }
    for (const [role, cookie] of [
      ['owner', owner.cookie],
      ['admin', adminAuth.Cookie],
    ] as const) {
      holders.push({
        label: `${role} token`,
        role,
        capabilities: capabilitiesOf({ kind: 'user', role }),
        mint: cachedMint(
          async (scopes) => (await createToken(t.url, cookie, [...scopes], 7)).token,
        ),
      });
    }
    for (const preset of PRESETS) {
      const agent = await call(t.url, 'POST', 'createAgent', asOwner, { name: preset, preset });
      const minted = await call(t.url, 'POST', 'generateAgentToken', asOwner, {
        principalId: agent.body.result.data.json.principalId,
        tokenName: preset,
        expiresInDays: 30,
      });
      const caps = capabilitiesOf({ kind: 'agent', role: 'agent', preset });
      holders.push({
        label: `agent token ${preset}`,
        role: 'agent',
        capabilities: caps,
        mint: cachedMint(async (scopes) => {
          const res = await call(t.url, 'POST', 'generateAgentToken', asOwner, {
            principalId: agent.body.result.data.json.principalId,
            tokenName: 'narrow',
            expiresInDays: 7,
            scopes,
          });
          expect(res.status).toBe(200);
          return res.body.result.data.json.token as string;
        }),
      });
      callers.push({
        label: `agent token ${preset}`,
        auth: bearer(minted.body.result.data.json.token),
        allowedFor: (p) => permits(p, 'agent', caps),
      });
    }

    failing.push({ label: 'no credentials', auth: {}, code: 'AUTH_REQUIRED' });
    failing.push({
      label: 'unknown token',
      auth: bearer('slw_' + 'A'.repeat(49)),
      code: 'TOKEN_INVALID',
    });
    failing.push({
      label: 'unknown session',
      auth: cookieAuth('slipway_session=nope'),
      code: 'SESSION_EXPIRED',
    });
    const revoked = await createToken(t.url, owner.cookie, ['deploy:read']);
    expect(
      (await call(t.url, 'POST', 'revokeToken', asOwner, { tokenId: revoked.tokenId })).status,
    ).toBe(200);
    failing.push({ label: 'revoked token', auth: bearer(revoked.token), code: 'TOKEN_REVOKED' });
    const doomed = await call(t.url, 'POST', 'createAgent', asOwner, {
      name: 'doomed',
      preset: 'agent:full',
    });
    const doomedId = doomed.body.result.data.json.principalId;
    const doomedToken = await call(t.url, 'POST', 'generateAgentToken', asOwner, {
      principalId: doomedId,
      tokenName: 'd',
      expiresInDays: 30,
    });
    expect(
      (await call(t.url, 'POST', 'invalidatePrincipal', asOwner, { principalId: doomedId })).status,
    ).toBe(200);
    failing.push({
      label: 'invalidated token',
      auth: bearer(doomedToken.body.result.data.json.token),
      code: 'TOKEN_INVALIDATED',
    });
    expiring = bearer((await createToken(t.url, owner.cookie, ['deploy:read'], 1)).token);
  });
  afterAll(async () => {
    await t.close();
  });

  it('knows every command that names a principal or a token as a rank-checked one', () => {
    const naming = contract.procedures
      .filter((p) => p.lane === 'command')
      .filter((p) => {
        const props = (p.input?.properties ?? {}) as Record<string, unknown>;
        return ['principalId', 'userId', 'tokenId'].some((k) => k in props);
      })
      .map((p) => p.name)
      .sort();
    expect(naming).toEqual(Object.keys(RANK_TARGETED).sort());
  });

  it('covers exactly the live registry, and has an input for every procedure', () => {
    const live = t.app
      .get(ProcedureRegistry)
      .list()
      .map((p) => p.name);
    expect(contract.procedures.map((p) => p.name)).toEqual(live);
    const missing = contract.procedures
      .filter((p) => !(p.name in MATRIX_INPUTS))
      .map((p) => p.name);
    expect(missing).toEqual([]);
  });

  for (const p of contract.procedures) {
    describe(`${p.method} ${p.path} (${p.auth}; roles ${p.roles.join('/') || '-'}; scopes ${p.scopes.join(' ') || '-'})`, () => {
      const input = () => MATRIX_INPUTS[p.name];

      it('refuses bad credentials with the spec 7.2 codes (public: answers anyway)', async () => {
        for (const f of failing) {
          const res = await call(t.url, p.method, p.name, f.auth, input());
          if (p.auth === 'public') expect([f.label, res.status]).toEqual([f.label, 200]);
          else expect([f.label, res.status, res.body.error?.code]).toEqual([f.label, 401, f.code]);
        }
      });

      it('allows or forbids each role session and agent preset exactly as declared', async () => {
        for (const c of callers) {
          const res = await call(t.url, p.method, p.name, c.auth, input());
          if (c.allowedFor(p)) {
            expect([c.label, [401, 403].includes(res.status)]).toEqual([c.label, false]);
          } else {
            expect([c.label, res.status, res.body.error?.code]).toEqual([
              c.label,
              403,
              'FORBIDDEN',
            ]);
            expect(res.body.error.data.requiredScopes).toEqual(p.scopes);
            expect(Array.isArray(res.body.error.data.grantedScopes)).toBe(true);
          }
        }
      });

      if (p.auth === 'authenticated' && p.scopes.length > 0) {
        it('refuses a token narrower than its principal where it lacks the scope; lets through one holding just that scope, if what it creates fits', async () => {
          const grants = MATRIX_GRANTS[p.name] ?? [];
          for (const h of holders.filter((h) => permits(p, h.role, h.capabilities))) {
            const without = h.capabilities.filter((s) => !p.scopes.includes(s));
            if (without.length > 0) {
              const res = await call(t.url, p.method, p.name, await h.mint(without), input());
              expect([h.label, res.status, res.body.error?.code]).toEqual([
                h.label,
                403,
                'FORBIDDEN',
              ]);
              expect(res.body.error.data).toMatchObject({
                requiredScopes: p.scopes,
                grantedScopes: [...without].sort(),
                missingScopes: p.scopes,
              });
            }
            const res = await call(t.url, p.method, p.name, await h.mint(p.scopes), input());
            const wider = grants.filter((s) => !p.scopes.includes(s));
            if (wider.length === 0) {
              expect([h.label, [401, 403].includes(res.status)]).toEqual([h.label, false]);
            } else {
              expect([h.label, res.status, res.body.error?.data?.rule]).toEqual([
                h.label,
                403,
                'narrowing',
              ]);
              expect(res.body.error.data).toMatchObject({
                grantedScopes: p.scopes,
                refusedScopes: [...wider].sort(),
              });
            }
          }
        });
      }

      const targeting = RANK_TARGETED[p.name];
      if (targeting) {
        it('acts on principals of the caller’s rank or below only, and hands token values to no other human', async () => {
          const outcomes: unknown[] = [];
          const expected: unknown[] = [];
          for (const [callerRole, auth] of [
            ['owner', cookieAuth(ownerCookie)],
            ['admin', adminAuth],
          ] as const) {
            for (const kind of TARGET_KINDS) {
              const want = expectedOutcome(p, targeting, callerRole, kind);
              if (want === null) continue;
              const target = await freshTarget(t.url, cookieAuth(ownerCookie), adminAuth, kind);
              const res = await call(t.url, p.method, p.name, auth, targeting.input(target));
              expected.push([callerRole, kind, want]);
              outcomes.push([callerRole, kind, outcomeOf(res)]);
            }
          }
          expect(outcomes).toEqual(expected);
        });
      }
    });
  }

  // Last: moving the clock two days on also ends every session of the callers above.
  it('refuses an expired token with TOKEN_EXPIRED on every authenticated procedure', async () => {
    clock.advance(2 * DAY);
    for (const p of contract.procedures) {
      const res = await call(t.url, p.method, p.name, expiring, MATRIX_INPUTS[p.name]);
      if (p.auth === 'public') expect(res.status).toBe(200);
      else
        expect([p.name, res.status, res.body.error?.code]).toEqual([p.name, 401, 'TOKEN_EXPIRED']);
    }
    const stale = await request(t.url).get('/trpc/viewer').set('Cookie', ownerCookie);
    expect(stale.body.error.code).toBe('SESSION_EXPIRED');
  });
});
