import { describe, it } from '@jest/globals';
import {
  AgentCreated,
  PrincipalInvalidated,
  TokenMinted,
  TokenRevoked,
  TokenRotated,
  TokensInvalidatedBefore,
} from '../src/events/access.events.js';
import {
  SessionEnded,
  SessionStarted,
  UserDeactivated,
  UserRoleChanged,
  UserSignedUp,
} from '../src/events/identity.events.js';
import { apiTokensProjection } from './api-tokens.projection.js';
import { principalsProjection } from './principals.projection.js';
import { at } from './testing/given-events.js';
import { givenProjection } from './testing/given-projection.js';
import { sessionsProjection } from './sessions.projection.js';

describe('principals projection', () => {
  it('follows a user through sign-up, role change, token cut-off and deactivation', () => {
    // Exactly this document: the password hash is not among its fields.
    givenProjection(principalsProjection)
      .given(
        UserSignedUp({
          userId: 'u1',
          email: { pii: 1, subject: 'user-u1', ct: 'sealed-email' },
          emailDigest: 'd1',
          name: { pii: 1, subject: 'user-u1', ct: 'sealed-name' },
          role: 'viewer',
          passwordHash: 'h',
        }),
        UserRoleChanged({ userId: 'u1', from: 'viewer', to: 'operator' }),
        TokensInvalidatedBefore({ principalId: 'u1', before: at(2) }),
        UserDeactivated({ userId: 'u1' }),
      )
      .then({
        principals: {
          u1: {
            id: 'u1',
            kind: 'user',
            name: { pii: 1, subject: 'user-u1', ct: 'sealed-name' },
            email: { pii: 1, subject: 'user-u1', ct: 'sealed-email' },
            emailDigest: 'd1',
            dataErasedAt: null,
            role: 'operator',
            preset: null,
            status: 'deactivated',
            createdAt: at(0),
            createdBy: null,
            invalidatedAt: null,
            tokensInvalidatedBefore: at(2),
          },
        },
      });
  });

  it('records an agent and its invalidation once', () => {
    givenProjection(principalsProjection)
      .given(
        AgentCreated({ principalId: 'a1', name: 'bot', preset: 'agent:full', createdBy: 'u1' }),
        PrincipalInvalidated({ principalId: 'a1', reason: 'leak' }),
        PrincipalInvalidated({ principalId: 'a1', reason: 'again' }),
      )
      .thenMatches({
        principals: {
          a1: { kind: 'agent', role: 'agent', preset: 'agent:full', invalidatedAt: at(1) },
        },
      });
  });
});

describe('api tokens projection', () => {
  it('keeps metadata, revocation and rotation of a token', () => {
    givenProjection(apiTokensProjection)
      .given(
        TokenMinted({
          tokenId: 't1',
          principalId: 'u1',
          name: 'ci',
          scopes: ['deploy:read'],
          lane: 'read',
          digest: 'd1',
          expiresAt: null,
          createdBy: 'u1',
          rotatedFrom: null,
        }),
        TokenRotated({ tokenId: 't1', replacedBy: 't2', refuseAfter: at(60) }),
        TokenRevoked({ tokenId: 't1' }),
      )
      .thenMatches({
        api_tokens: {
          t1: {
            digest: 'd1',
            replacedBy: 't2',
            refuseAfter: at(60),
            revokedAt: at(2),
            lane: 'read',
          },
        },
      });
  });
});

describe('sessions projection', () => {
  it('starts and ends a session', () => {
    givenProjection(sessionsProjection)
      .given(
        SessionStarted({
          userId: 'u1',
          sessionDigest: 's1',
          expiresAt: at(3600),
          mfaVerified: true,
        }),
        SessionEnded({ userId: 'u1', sessionDigest: 's1', reason: 'logout' }),
      )
      .then({
        sessions: {
          s1: {
            id: 's1',
            mfaVerified: true,
            method: 'password',
            providerId: null,
            amr: [],
            userId: 'u1',
            startedAt: at(0),
            expiresAt: at(3600),
            endedAt: at(1),
            endReason: 'logout',
          },
        },
      });
  });

  it('says which provider an SSO session came through, with its amr', () => {
    givenProjection(sessionsProjection)
      .given(
        SessionStarted({
          userId: 'u1',
          sessionDigest: 's2',
          expiresAt: at(3600),
          mfaVerified: false,
          sso: { providerId: 'corp', amr: ['pwd'] },
        }),
      )
      .then({
        sessions: {
          s2: {
            id: 's2',
            mfaVerified: false,
            method: 'sso',
            providerId: 'corp',
            amr: ['pwd'],
            userId: 'u1',
            startedAt: at(0),
            expiresAt: at(3600),
            endedAt: null,
            endReason: null,
          },
        },
      });
  });
});
