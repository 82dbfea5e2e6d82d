import { describe, expect, it } from '@jest/globals';
import { decideFrom } from '../storage/decider.js';
import {
  AgentCreated,
  PrincipalInvalidated,
  TokenMinted,
  TokenRevoked,
  TokenRotated,
} from '../events/access.events.js';
import { principalDecider } from './principal.decider.js';
import { grantToken } from './token-policy.js';
import { tokenDecider } from './token.decider.js';

const minted = TokenMinted({
  tokenId: 't1',
  principalId: 'p1',
  name: 'ci',
  scopes: ['deploy:read'],
  lane: 'read',
  digest: 'd',
  expiresAt: null,
  createdBy: 'p1',
  rotatedFrom: null,
});
const now = new Date('2026-11-22T00:00:00.000Z');

describe('token decider', () => {
  it('mints once', () => {
    expect(decideFrom(tokenDecider, [], { kind: 'mint', event: minted.data })).toEqual([minted]);
    expect(() => decideFrom(tokenDecider, [minted], { kind: 'mint', event: minted.data })).toThrow(
      /already exists/,
    );
  });

  it('revokes idempotently, and refuses unknown tokens', () => {
    expect(decideFrom(tokenDecider, [minted], { kind: 'revoke', tokenId: 't1' })).toEqual([
      TokenRevoked({ tokenId: 't1' }),
    ]);
    expect(
      decideFrom(tokenDecider, [minted, TokenRevoked({ tokenId: 't1' })], {
        kind: 'revoke',
        tokenId: 't1',
      }),
    ).toEqual([]);
    expect(() => decideFrom(tokenDecider, [], { kind: 'revoke', tokenId: 't1' })).toThrow(
      /No such token/,
    );
  });

  it('rotates once, never a revoked token', () => {
    const rotate = {
      kind: 'rotate' as const,
      tokenId: 't1',
      replacedBy: 't2',
      refuseAfter: now.toISOString(),
    };
    expect(decideFrom(tokenDecider, [minted], rotate)).toEqual([
      TokenRotated({ tokenId: 't1', replacedBy: 't2', refuseAfter: now.toISOString() }),
    ]);
    expect(() =>
      decideFrom(tokenDecider, [minted, TokenRevoked({ tokenId: 't1' })], rotate),
    ).toThrow(/revoked/);
    expect(() => decideFrom(tokenDecider, [minted, TokenRotated(rotate)], rotate)).toThrow(
      /already rotated/,
    );
  });
});

describe('principal decider', () => {
  it('creates an agent once and invalidates idempotently', () => {
    const create = {
      kind: 'createAgent' as const,
      principalId: 'a1',
      name: 'bot',
      preset: 'agent:read-only',
      createdBy: 'o',
    };
    const created = AgentCreated({
      principalId: 'a1',
      name: 'bot',
      preset: 'agent:read-only',
      createdBy: 'o',
    });
    expect(decideFrom(principalDecider, [], create)).toEqual([created]);
    expect(() => decideFrom(principalDecider, [created], create)).toThrow(/already exists/);
    const invalidated = PrincipalInvalidated({ principalId: 'a1', reason: 'leaked' });
    expect(
      decideFrom(principalDecider, [created], {
        kind: 'invalidate',
        principalId: 'a1',
        reason: 'leaked',
      }),
    ).toEqual([invalidated]);
    expect(
      decideFrom(principalDecider, [created, invalidated], {
        kind: 'invalidate',
        principalId: 'a1',
        reason: 'again',
      }),
    ).toEqual([]);
  });
});

describe('grantToken', () => {
  const operator = { kind: 'user' as const, role: 'operator' as const };
  const agent = { kind: 'agent' as const, role: 'agent' as const, preset: 'agent:read-only' };

  it('grants scopes within capabilities and computes lane and expiry', () => {
    expect(grantToken(operator, ['deploy:start', 'deploy:read', 'deploy:read'], 30, now)).toEqual({
      scopes: ['deploy:read', 'deploy:start'],
      lane: 'command',
      expiresAt: '2026-12-22T00:00:00.000Z',
    });
  });

  it('refuses scopes outside capabilities, listing them, instead of dropping them', () => {
    expect(() => grantToken(agent, ['deploy:read', 'deploy:start'], 7, now)).toThrow(
      expect.objectContaining({
        code: 'FORBIDDEN',
        data: expect.objectContaining({ refusedScopes: ['deploy:start'] }),
      }),
    );
    expect(() => grantToken(operator, ['tokens:manage'], 7, now)).toThrow(
      /cannot hold tokens:manage/,
    );
  });

  it('refuses unknown scopes and agent tokens without expiry', () => {
    expect(() => grantToken(operator, ['root:all'], 7, now)).toThrow(/Unknown scope/);
    expect(() => grantToken(agent, ['deploy:read'], undefined, now)).toThrow(/must expire/);
  });
});
