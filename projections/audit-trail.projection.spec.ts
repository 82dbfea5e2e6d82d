import { describe, expect, it } from '@jest/globals';
import { AccessDenied, CommandRejected } from '../src/events/refusal.events.js';
import { AgentCreated } from '../src/events/access.events.js';
import { auditTrailProjection } from './audit-trail.projection.js';
import { projectInMemory } from './project-in-memory.js';
import { at, given } from './testing/given-events.js';
import { givenProjection } from './testing/given-projection.js';

const refusal = {
  surface: 'procedure' as const,
  target: 'createAgent',
  lane: 'command' as const,
  inputFields: ['name'],
  coalesced: false,
  firstAt: at(0),
  lastAt: at(0),
};

describe('audit_trail projection', () => {
  it('keeps one entry per event, whatever its type, with outcome, resource and attribution', () => {
    givenProjection(auditTrailProjection)
      .given(
        {
          ...AgentCreated({
            principalId: 'a1',
            name: 'bot',
            preset: 'agent:read-only',
            createdBy: 'u1',
          }),
          stream: 'principal-a1',
          metadata: {
            actor: { principalId: 'u1', kind: 'user', role: 'owner' },
            authMethod: 'token',
            tokenId: 't1',
            requestId: 'r1',
          },
        },
        AccessDenied({ ...refusal, code: 'FORBIDDEN', count: 1 }),
        {
          ...CommandRejected({ ...refusal, code: 'BAD_REQUEST', count: 1, channel: 'mcp' }),
          metadata: { actor: { principalId: 'a1', kind: 'agent', role: 'agent' }, channel: 'mcp' },
        },
        CommandRejected({ ...refusal, code: 'BAD_REQUEST', count: 41, coalesced: true }),
      )
      .thenMatches({
        audit_trail: {
          p1: {
            position: 1,
            type: 'AgentCreated',
            outcome: 'succeeded',
            resource: 'principal-a1',
            actorId: 'u1',
            authMethod: 'token',
            tokenId: 't1',
            requestId: 'r1',
            count: 1,
            code: null,
            channel: 'http',
          },
          p2: {
            outcome: 'denied',
            resource: 'procedure:createAgent',
            code: 'FORBIDDEN',
            inputFields: ['name'],
            channel: 'http',
          },
          p3: { outcome: 'rejected', actorKind: 'agent', channel: 'mcp' },
          p4: { outcome: 'rejected', code: 'BAD_REQUEST', count: 41 },
        },
      });
  });

  it('is idempotent: applying the same events twice gives the same entries', () => {
    const events = given([AccessDenied({ ...refusal, code: 'AUTH_REQUIRED', count: 1 })]);
    expect(projectInMemory(auditTrailProjection, [...events, ...events])).toEqual(
      projectInMemory(auditTrailProjection, events),
    );
  });
});
