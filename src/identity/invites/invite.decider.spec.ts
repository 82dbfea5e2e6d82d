import { describe, expect, it } from '@jest/globals';
import type { Caller } from '../../access/authority.js';
import { ROLE_CAPABILITIES } from '../../access/capabilities.js';
import { InviteAccepted, InviteRevoked, MemberInvited } from '../../events/invite.events.js';
import { decideFrom } from '../../storage/decider.js';
import type { HumanRole } from '../team-members.decider.js';
import { inviteDecider as decider } from './invite.decider.js';

const ID = '11111111-1111-4111-8111-111111111111';
const EXPIRES = '2030-01-08T00:00:00.000Z';
const BEFORE = Date.parse('2030-01-07T00:00:00.000Z');
const AFTER = Date.parse('2030-01-09T00:00:00.000Z');
const sealed = { pii: 1 as const, subject: `invite-${ID}`, ct: 'enc' };
const actor = (role: HumanRole, scopes = ROLE_CAPABILITIES[role]): Caller => ({
  id: `${role}-1`,
  kind: 'user',
  role,
  scopes,
});
const invited = (role: HumanRole = 'operator') =>
  MemberInvited({
    inviteId: ID,
    email: sealed,
    emailDigest: 'd',
    role,
    tokenDigest: 'digest-of-secret',
    expiresAt: EXPIRES,
  });
const invite = (by: Caller, role: HumanRole) => ({
  kind: 'invite' as const,
  actor: by,
  inviteId: ID,
  email: sealed,
  emailDigest: 'd',
  role,
  tokenDigest: 'digest-of-secret',
  expiresAt: EXPIRES,
});
const accept = (now = BEFORE, tokenDigest = 'digest-of-secret') => ({
  kind: 'accept' as const,
  inviteId: ID,
  tokenDigest,
  userId: 'u2',
  now,
});

describe('invite decider', () => {
  it('Given nothing, When an admin invites an operator, Then MemberInvited', () => {
    expect(decideFrom(decider, [], invite(actor('admin'), 'operator'))).toEqual([
      invited('operator'),
    ]);
  });

  it('Given nothing, When an admin invites an owner, Then refused by rank', () => {
    expect(() => decideFrom(decider, [], invite(actor('admin'), 'owner'))).toThrow(
      /above your own/,
    );
  });

  it('Given nothing, When a narrow credential invites an admin, Then refused by narrowing', () => {
    expect(() =>
      decideFrom(decider, [], invite(actor('owner', ['members:manage']), 'admin')),
    ).toThrow(/Granting admin/);
  });

  it('Given an invite, When accepted with its secret in time, Then InviteAccepted', () => {
    expect(decideFrom(decider, [invited()], accept())).toEqual([
      InviteAccepted({ inviteId: ID, userId: 'u2' }),
    ]);
  });

  it('Given an accepted invite, When accepted again, Then refused (single use)', () => {
    const history = [invited(), InviteAccepted({ inviteId: ID, userId: 'u2' })];
    expect(() => decideFrom(decider, history, accept())).toThrow(/invalid, used/);
  });

  it('Given an invite, When accepted after expiry or with another secret, Then refused', () => {
    expect(() => decideFrom(decider, [invited()], accept(AFTER))).toThrow(/invalid/);
    expect(() => decideFrom(decider, [invited()], accept(BEFORE, 'other'))).toThrow(/invalid/);
    expect(() => decideFrom(decider, [], accept())).toThrow(/invalid/);
  });

  it('Given a revoked invite, When accepted, Then refused; revoking again changes nothing', () => {
    const history = [invited(), InviteRevoked({ inviteId: ID })];
    expect(() => decideFrom(decider, history, accept())).toThrow(/invalid/);
    expect(
      decideFrom(decider, history, { kind: 'revoke', actor: actor('owner'), inviteId: ID }),
    ).toEqual([]);
  });

  it('Given an invite to admin, When an operator-ranked caller revokes it, Then refused by rank', () => {
    expect(() =>
      decideFrom(decider, [invited('admin')], {
        kind: 'revoke',
        actor: actor('operator'),
        inviteId: ID,
      }),
    ).toThrow(/Granting admin would exceed your access/);
  });

  it('Given an accepted invite, When revoked, Then conflict', () => {
    const history = [invited(), InviteAccepted({ inviteId: ID, userId: 'u2' })];
    expect(() =>
      decideFrom(decider, history, { kind: 'revoke', actor: actor('owner'), inviteId: ID }),
    ).toThrow(/already accepted/);
  });
});
