import { describe, expect, it } from '@jest/globals';
import { AppError } from '../common/app-error.js';
import { SecretBox } from '../secrets/secret-box.js';
import { PlanClaims } from './plan-claims.js';

const subject = { serviceId: 's1', imageTag: 'a/b:1' };
const claim = { principalId: 'p1', command: 'triggerDeploy', subject };

function claims(key = 7) {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const c = new PlanClaims(new SecretBox(Buffer.alloc(32, key)), { now: () => new Date(now) });
  return { c, advance: (ms: number) => (now += ms) };
}

function reason(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error instanceof AppError ? error.data.reason : error;
  }
  return 'accepted';
}

describe('plan ids: signed claims of principal, command, input and time', () => {
  it('accepts its own claim for the same input within 10 minutes, in any key order', () => {
    const { c, advance } = claims();
    const id = c.issue(claim);
    advance(9 * 60_000);
    expect(
      reason(() => c.verify(id, { ...claim, subject: { imageTag: 'a/b:1', serviceId: 's1' } })),
    ).toBe('accepted');
  });

  it.each([
    ['another principal', { ...claim, principalId: 'p2' }, 'foreign'],
    ['another input', { ...claim, subject: { ...subject, imageTag: 'a/b:2' } }, 'other-input'],
    ['another command', { ...claim, command: 'executeRollback' }, 'other-input'],
  ])('refuses it for %s', (_label, other, expected) => {
    const { c } = claims();
    expect(reason(() => c.verify(c.issue(claim), other))).toBe(expected);
  });

  it('refuses it after 10 minutes, and refuses forged or altered ids', () => {
    const { c, advance } = claims();
    const id = c.issue(claim);
    advance(10 * 60_000 + 1);
    expect(reason(() => c.verify(id, claim))).toBe('stale');
    const other = claims(9).c.issue(claim);
    expect(reason(() => c.verify(other, claim))).toBe('invalid');
    expect(reason(() => c.verify(`${id}x`, claim))).toBe('invalid');
    expect(reason(() => c.verify('pln_', claim))).toBe('invalid');
  });
});
