import { describe, expect, it } from '@jest/globals';
import { amrIsMultiFactor, amrOf } from './provider-mfa.js';

describe("a provider's amr as MFA", () => {
  it('counts mfa, or a password with a second factor, or two second factors', () => {
    expect(amrIsMultiFactor(['mfa'])).toBe(true);
    expect(amrIsMultiFactor(['pwd', 'otp'])).toBe(true);
    expect(amrIsMultiFactor(['hwk', 'pin', 'fpt'])).toBe(true);
  });

  it('does not count one factor, nothing, or values outside RFC 8176', () => {
    expect(amrIsMultiFactor(['pwd'])).toBe(false);
    expect(amrIsMultiFactor([])).toBe(false);
    expect(amrIsMultiFactor(['hwk'])).toBe(false);
    expect(amrIsMultiFactor(['pwd', 'magic'])).toBe(false);
    expect(amrIsMultiFactor(['pwd', 'pwd'])).toBe(false);
  });

  it('records strings only, bounded', () => {
    expect(amrOf('pwd')).toEqual([]);
    expect(amrOf(['pwd', 3, '', 'x'.repeat(33), 'otp'])).toEqual(['pwd', 'otp']);
    expect(amrOf(Array.from({ length: 40 }, () => 'otp'))).toHaveLength(16);
  });
});
