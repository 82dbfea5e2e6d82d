import { describe, expect, it } from '@jest/globals';
import type { Caller } from '../access/authority.js';
import { ROLE_CAPABILITIES } from '../access/capabilities.js';
import { decideFrom } from '../storage/decider.js';
import { UserDeactivated, UserRoleChanged, UserSignedUp } from '../events/identity.events.js';
import { teamMembersDecider as decider, type HumanRole } from './team-members.decider.js';

const signedUp = (userId: string, role: HumanRole, email = `${userId}@example.com`) =>
  UserSignedUp({
    userId,
    email: sealed(email),
    emailDigest: digest(email),
    name: sealed(userId),
    role,
    passwordHash: 'h',
  });
// Stand-ins for PersonalData: the decider only compares digests and copies sealed values.
const digest = (email: string) => `digest:${email}`;
const sealed = (value: string) => ({ pii: 1 as const, subject: 'user-x', ct: `enc(${value})` });
/** A session caller: its effective scopes are its role's capabilities. */
const actor = (id: string, role: HumanRole, scopes = ROLE_CAPABILITIES[role]): Caller => ({
  id,
  kind: 'user',
  role,
  scopes,
});
const signUp = (email: string, more: { openSignup?: boolean; invitedAs?: HumanRole } = {}) => ({
  kind: 'signUp' as const,
  userId: 'new',
  email,
  emailDigest: digest(email),
  sealedEmail: sealed(email),
  sealedName: sealed('N'),
  passwordHash: 'h',
  openSignup: more.openSignup ?? true,
  invitedAs: more.invitedAs,
});
const changeRole = (by: Caller, userId: string, role: HumanRole) => ({
  kind: 'changeRole' as const,
  actor: by,
  userId,
  role,
});

describe('team members decider', () => {
  it('makes the first sign-up owner and later ones viewer', () => {
    expect(decideFrom(decider, [], signUp('a@x.io'))[0].data).toMatchObject({ role: 'owner' });
    expect(decideFrom(decider, [signedUp('u1', 'owner')], signUp('b@x.io'))[0].data).toMatchObject({
      role: 'viewer',
    });
  });

  it('with open sign-up off, refuses sign-up after the owner unless it comes with an invite', () => {
    const owner = [signedUp('u1', 'owner')];
    // The founder needs no invite.
    expect(decideFrom(decider, [], signUp('a@x.io', { openSignup: false }))[0].data).toMatchObject({
      role: 'owner',
    });
    expect(() => decideFrom(decider, owner, signUp('b@x.io', { openSignup: false }))).toThrow(
      /by invitation/,
    );
    const invited = decideFrom(
      decider,
      owner,
      signUp('b@x.io', { openSignup: false, invitedAs: 'operator' }),
    );
    expect(invited[0].data).toMatchObject({ role: 'operator' });
  });

  it('ranks a member who joined by invite as the invite’s role (read from the read model)', () => {
    const owner = [signedUp('u1', 'owner')];
    const admin = actor('a1', 'admin');
    // An invited owner signed up on their own email stream: an admin cannot demote them.
    expect(() =>
      decideFrom(decider, owner, {
        ...changeRole(admin, 'u2', 'viewer'),
        joined: true,
        joinedAs: 'owner',
      }),
    ).toThrow(/ranks above/);
  });

  it('refuses a second account with the same email', () => {
    expect(() =>
      decideFrom(decider, [signedUp('u1', 'owner', 'a@x.io')], signUp('a@x.io')),
    ).toThrow(/already exists/);
  });

  it('tells nobody who may not join whether an address is a member’s (invite-only first)', () => {
    const team = [signedUp('u1', 'owner', 'a@x.io')];
    expect(() => decideFrom(decider, team, signUp('a@x.io', { openSignup: false }))).toThrow(
      /invit/i,
    );
    expect(() => decideFrom(decider, team, signUp('b@x.io', { openSignup: false }))).toThrow(
      /invit/i,
    );
  });

  it('refuses an email already used by a plaintext (version 1) sign-up', () => {
    const v1 = {
      ...signedUp('u1', 'owner'),
      schemaVersion: 1,
      data: { userId: 'u1', email: 'a@x.io', name: 'A', role: 'owner', passwordHash: 'h' },
    };
    expect(() => decideFrom(decider, [v1], signUp('a@x.io'))).toThrow(/already exists/);
  });

  it('records only the digest and sealed values, never the plaintext email', () => {
    const [event] = decideFrom(decider, [], signUp('a@x.io'));
    expect(JSON.stringify(event.data)).not.toContain('"a@x.io"');
    expect(event.data).toMatchObject({ emailDigest: 'digest:a@x.io', email: sealed('a@x.io') });
  });

  it('lets an owner promote a viewer to admin', () => {
    const given = [signedUp('o', 'owner'), signedUp('v', 'viewer')];
    expect(decideFrom(decider, given, changeRole(actor('o', 'owner'), 'v', 'admin'))).toEqual([
      UserRoleChanged({ userId: 'v', from: 'viewer', to: 'admin' }),
    ]);
  });

  it('refuses to grant a role above the granter’s own', () => {
    const given = [signedUp('o', 'owner'), signedUp('a', 'admin'), signedUp('v', 'viewer')];
    expect(() => decideFrom(decider, given, changeRole(actor('a', 'admin'), 'v', 'owner'))).toThrow(
      /above your own/,
    );
  });

  it('refuses an admin changing an owner', () => {
    const given = [signedUp('o', 'owner'), signedUp('o2', 'owner'), signedUp('a', 'admin')];
    expect(() =>
      decideFrom(decider, given, changeRole(actor('a', 'admin'), 'o2', 'viewer')),
    ).toThrow(/change the role of an owner: owner ranks above admin/);
    expect(() =>
      decideFrom(decider, given, { kind: 'deactivate', actor: actor('a', 'admin'), userId: 'o2' }),
    ).toThrow(/deactivate an owner: owner ranks above admin/);
  });

  it('lets an admin manage another admin (same rank) but not promote anyone to owner', () => {
    const given = [signedUp('o', 'owner'), signedUp('a', 'admin'), signedUp('a2', 'admin')];
    const demote = { kind: 'changeRole' as const, actor: actor('a', 'admin'), userId: 'a2' };
    expect(decideFrom(decider, given, { ...demote, role: 'viewer' })).toEqual([
      UserRoleChanged({ userId: 'a2', from: 'admin', to: 'viewer' }),
    ]);
    expect(() => decideFrom(decider, given, { ...demote, userId: 'a', role: 'owner' })).toThrow(
      /grant owner, a role above your own/,
    );
  });

  it('refuses to grant a role wider than the credential presented (narrowing), before anything else', () => {
    const given = [signedUp('o', 'owner'), signedUp('v', 'viewer')];
    const narrow = actor('o', 'owner', ['members:manage']);
    let refusal: unknown;
    try {
      decideFrom(decider, given, changeRole(narrow, 'v', 'admin'));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toMatchObject({
      code: 'FORBIDDEN',
      data: {
        rule: 'narrowing',
        grantedScopes: ['members:manage'],
        refusedScopes: expect.arrayContaining(['audit:read', 'security:manage']),
      },
    });
    expect(() => decideFrom(decider, given, changeRole(narrow, 'zz', 'admin'))).toThrow(
      /would exceed your access/,
    );
  });

  it('refuses to demote or deactivate the last owner, allows it when another owner remains', () => {
    const one = [signedUp('o', 'owner')];
    expect(() => decideFrom(decider, one, changeRole(actor('o', 'owner'), 'o', 'admin'))).toThrow(
      /last owner/,
    );
    expect(() =>
      decideFrom(decider, one, { kind: 'deactivate', actor: actor('o', 'owner'), userId: 'o' }),
    ).toThrow(/last owner/);
    const two = [...one, signedUp('o2', 'owner')];
    expect(
      decideFrom(decider, two, { kind: 'deactivate', actor: actor('o', 'owner'), userId: 'o2' }),
    ).toEqual([UserDeactivated({ userId: 'o2' })]);
  });

  it('treats deactivating a deactivated user as done, and refuses role changes for them', () => {
    const given = [
      signedUp('o', 'owner'),
      signedUp('v', 'viewer'),
      UserDeactivated({ userId: 'v' }),
    ];
    expect(
      decideFrom(decider, given, { kind: 'deactivate', actor: actor('o', 'owner'), userId: 'v' }),
    ).toEqual([]);
    expect(() =>
      decideFrom(decider, given, changeRole(actor('o', 'owner'), 'v', 'operator')),
    ).toThrow(/deactivated/);
  });

  it('answers an unknown user with NOT_FOUND', () => {
    expect(() =>
      decideFrom(decider, [signedUp('o', 'owner')], {
        kind: 'deactivate',
        actor: actor('o', 'owner'),
        userId: 'zz',
      }),
    ).toThrow(/No such user/);
  });
});

describe('team members decider: members who signed up on their own email stream', () => {
  const founder = signedUp('o', 'owner');

  it('knows a joined member it does not hold as the viewer the sign-up made them', () => {
    const promote = { kind: 'changeRole' as const, actor: actor('o', 'owner'), userId: 'j' };
    expect(decideFrom(decider, [founder], { ...promote, role: 'owner', joined: true })).toEqual([
      UserRoleChanged({ userId: 'j', from: 'viewer', to: 'owner' }),
    ]);
    expect(() => decideFrom(decider, [founder], { ...promote, role: 'owner' })).toThrow(
      /No such user/,
    );
  });

  it('counts a joined member promoted to owner, so the founder may then step down', () => {
    const given = [founder, UserRoleChanged({ userId: 'j', from: 'viewer', to: 'owner' })];
    expect(decideFrom(decider, given, changeRole(actor('j', 'owner'), 'o', 'admin'))).toEqual([
      UserRoleChanged({ userId: 'o', from: 'owner', to: 'admin' }),
    ]);
  });

  it('remembers a joined member’s deactivation', () => {
    const given = [founder, UserDeactivated({ userId: 'j' })];
    expect(
      decideFrom(decider, given, {
        kind: 'deactivate',
        actor: actor('o', 'owner'),
        userId: 'j',
        joined: true,
      }),
    ).toEqual([]);
  });

  describe("an identity provider's claim mapping at sign-in", () => {
    const mapRole = (
      userId: string,
      role: 'admin' | 'operator' | 'viewer',
      joinedAs?: HumanRole,
    ) => ({
      kind: 'mapRole' as const,
      providerId: 'corp',
      userId,
      role,
      joined: joinedAs !== undefined,
      joinedAs,
    });

    it('Given a joined viewer, When the mapping says operator, Then the change names the provider', () => {
      expect(decideFrom(decider, [founder], mapRole('j', 'operator', 'viewer'))).toEqual([
        UserRoleChanged({ userId: 'j', from: 'viewer', to: 'operator', providerId: 'corp' }),
      ]);
    });

    it('Given an owner, a deactivated member or the same role, When mapped, Then nothing', () => {
      expect(decideFrom(decider, [founder], mapRole('o', 'viewer'))).toEqual([]);
      const gone = [founder, UserDeactivated({ userId: 'j' })];
      expect(decideFrom(decider, gone, mapRole('j', 'admin', 'viewer'))).toEqual([]);
      expect(decideFrom(decider, [founder], mapRole('j', 'viewer', 'viewer'))).toEqual([]);
    });
  });
});
