import { describe, expect, it } from '@jest/globals';
import type { Caller } from '../../access/authority.js';
import { ROLE_CAPABILITIES } from '../../access/capabilities.js';
import { InviteAccepted, InviteRevoked, MemberInvited } from '../../events/invite.events.js';
import { systemMetadata } from '../../eventstore/event-metadata.js';
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
const invited = (role: HumanRole = 'operator', by: HumanRole = 'admin') =>
  MemberInvited({
    inviteId: ID,
    email: sealed,
    emailDigest: 'd',
    role,
    tokenDigest: 'digest-of-secret',
    expiresAt: EXPIRES,
    invitedBy: { userId: `${by}-1`, role: by },
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
const standing = (role: HumanRole, active = true) => ({ userId: `${role}-1`, role, active });
const accept = (
  now = BEFORE,
  tokenDigest = 'digest-of-secret',
  inviter: ReturnType<typeof standing> | null = standing('admin'),
) => ({
  kind: 'accept' as const,
  inviteId: ID,
  tokenDigest,
  userId: 'u2',
  now,
  inviter,
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

  it('Given an invite by an admin, When accepted after the admin lost the standing to send it, Then refused', () => {
    const demoted = accept(BEFORE, 'digest-of-secret', standing('operator'));
    expect(() => decideFrom(decider, [invited('operator')], demoted)).toThrow(/no longer valid/);
    const deactivated = accept(BEFORE, 'digest-of-secret', standing('admin', false));
    expect(() => decideFrom(decider, [invited('operator')], deactivated)).toThrow(
      /no longer valid/,
    );
    const unknown = accept(BEFORE, 'digest-of-secret', null);
    expect(() => decideFrom(decider, [invited('operator')], unknown)).toThrow(/no longer valid/);
  });

  it('Given an invite to owner, When accepted after its owner became admin, Then refused; promoted inviters still grant', () => {
    const demoted = accept(BEFORE, 'digest-of-secret', standing('admin'));
    expect(() => decideFrom(decider, [invited('owner', 'owner')], demoted)).toThrow(
      /can no longer grant owner/,
    );
    const promoted = accept(BEFORE, 'digest-of-secret', standing('owner'));
    expect(decideFrom(decider, [invited('admin')], promoted)).toEqual([
      InviteAccepted({ inviteId: ID, userId: 'u2' }),
    ]);
  });

  it('Given a version 1 invite, Then its inviter is the recorded actor', () => {
    const v1 = {
      type: MemberInvited.type,
      schemaVersion: 1,
      data: { inviteId: ID, email: sealed, emailDigest: 'd', role: 'viewer', tokenDigest: 't' },
      metadata: {
        ...systemMetadata(),
        actor: { principalId: 'admin-7', kind: 'user' as const, role: 'admin' },
        authMethod: 'session' as const,
      },
    };
    const state = decider.evolve(decider.initialState(), {
      ...v1,
      data: { ...v1.data, expiresAt: EXPIRES },
    });
    expect(state.invite?.invitedBy).toEqual({ userId: 'admin-7', role: 'admin' });
    const unattributed = decider.evolve(decider.initialState(), {
      ...v1,
      data: { ...v1.data, expiresAt: EXPIRES },
      metadata: systemMetadata(),
    });
    expect(unattributed.invite?.invitedBy).toBeNull();
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

  describe('accepted through an identity provider that verified the email', () => {
    const throughSso = (now = BEFORE, emailDigest = 'd') => ({
      kind: 'acceptThroughSso' as const,
      inviteId: ID,
      emailDigest,
      userId: 'u3',
      now,
      inviter: standing('admin'),
    });

    it('Given an invite, When the same email signs in in time, Then InviteAccepted', () => {
      expect(decideFrom(decider, [invited()], throughSso())).toEqual([
        InviteAccepted({ inviteId: ID, userId: 'u3' }),
      ]);
    });

    it('Given an invite, When another email, late, or a second time, Then refused', () => {
      expect(() => decideFrom(decider, [invited()], throughSso(BEFORE, 'other'))).toThrow(
        /invalid/,
      );
      expect(() => decideFrom(decider, [invited()], throughSso(AFTER))).toThrow(/invalid/);
      const used = [invited(), InviteAccepted({ inviteId: ID, userId: 'u2' })];
      expect(() => decideFrom(decider, used, throughSso())).toThrow(/invalid/);
    });
  });
});
