import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { ApiContract, ContractProcedure } from '../contract/build-contract.js';
import { capabilitiesOf } from '../src/access/capabilities.js';
import { ProcedureRegistry } from '../src/rpc/procedure-registry.js';
import { bearer, call, cookieAuth, createToken, signUp } from './support/identity.js';
import { MATRIX_INPUTS } from './support/matrix-inputs.js';
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

describe('authorization matrix, generated from contract/api-contract.json', () => {
  const clock = new TestClock();
  let t: TestApp;
  const callers: Caller[] = [];
  const failing: { label: string; auth: Record<string, string>; code: string }[] = [];
  let expiring: Record<string, string>;
  let ownerCookie: string;

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
    }
    for (const preset of PRESETS) {
      const agent = await call(t.url, 'POST', 'createAgent', asOwner, { name: preset, preset });
      const minted = await call(t.url, 'POST', 'generateAgentToken', asOwner, {
        principalId: agent.body.result.data.json.principalId,
        tokenName: preset,
        expiresInDays: 30,
      });
      const caps = capabilitiesOf({ kind: 'agent', role: 'agent', preset });
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
        it("refuses an owner token that lacks the procedure's scope, listing required and granted", async () => {
          const other = ['server:read', 'deploy:read'].find((s) => !p.scopes.includes(s))!;
          const narrow = await createToken(t.url, ownerCookie, [other], 7);
          const res = await call(t.url, p.method, p.name, bearer(narrow.token), input());
          expect(res.status).toBe(403);
          expect(res.body.error).toMatchObject({
            code: 'FORBIDDEN',
            data: { requiredScopes: p.scopes, grantedScopes: [other] },
          });
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
