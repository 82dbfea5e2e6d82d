import { describe, expect, it } from '@jest/globals';
import { decideFrom } from '../storage/decider.js';
import { UserSignedUp } from '../events/identity.events.js';
import { memberEmailDecider } from './member-email.decider.js';

const sealed = (value: string) => ({ pii: 1 as const, subject: 'user-x', ct: `enc(${value})` });
const signedUp = (userId: string) =>
  UserSignedUp({
    userId,
    email: sealed('a@x.io'),
    emailDigest: 'digest:a@x.io',
    name: sealed(userId),
    role: 'viewer',
    passwordHash: 'h',
  });

describe('member email decider (one email address per stream)', () => {
  it('records the first sign-up with the email', () => {
    expect(decideFrom(memberEmailDecider, [], { signedUp: signedUp('u1') })).toEqual([
      signedUp('u1'),
    ]);
  });

  it('refuses a second account with the same email', () => {
    expect(() =>
      decideFrom(memberEmailDecider, [signedUp('u1')], { signedUp: signedUp('u2') }),
    ).toThrow(/already exists/);
  });
});
