import { describe, expect, it } from '@jest/globals';
import { decideFrom } from '../../storage/decider.js';
import {
  MfaDisabled,
  MfaEnrolled,
  MfaEnrollmentStarted,
  RecoveryCodesRotated,
  RecoveryCodeUsed,
  TotpCodeAccepted,
} from '../../events/mfa.events.js';
import { mfaDecider } from './mfa.decider.js';

const u = 'u1';
const started = MfaEnrollmentStarted({ userId: u, secretCiphertext: 'c1' });
const enrolled = [
  started,
  TotpCodeAccepted({ userId: u, timeStep: 100, purpose: 'enrolment' }),
  MfaEnrolled({ userId: u, recoveryCodeDigests: ['r1', 'r2'] }),
];

describe('mfa decider', () => {
  it('enrols after a confirmed code for the pending secret', () => {
    expect(
      decideFrom(mfaDecider, [started], {
        kind: 'confirm',
        userId: u,
        secretCiphertext: 'c1',
        timeStep: 100,
        recoveryCodeDigests: ['r1', 'r2'],
      }),
    ).toEqual(enrolled.slice(1));
    expect(() =>
      decideFrom(mfaDecider, [started], {
        kind: 'confirm',
        userId: u,
        secretCiphertext: 'other',
        timeStep: 100,
        recoveryCodeDigests: [],
      }),
    ).toThrow(/No matching enrolment/);
    expect(() =>
      decideFrom(mfaDecider, enrolled, { kind: 'start', userId: u, secretCiphertext: 'c2' }),
    ).toThrow(/Already enrolled/);
  });

  it('accepts a TOTP step once: the same or an older step is a replay', () => {
    expect(
      decideFrom(mfaDecider, enrolled, {
        kind: 'acceptTotp',
        userId: u,
        timeStep: 101,
        purpose: 'login',
      }),
    ).toEqual([TotpCodeAccepted({ userId: u, timeStep: 101, purpose: 'login' })]);
    expect(() =>
      decideFrom(mfaDecider, enrolled, {
        kind: 'acceptTotp',
        userId: u,
        timeStep: 100,
        purpose: 'login',
      }),
    ).toThrow(/not valid/);
    expect(() =>
      decideFrom(mfaDecider, enrolled, {
        kind: 'acceptTotp',
        userId: u,
        timeStep: 99,
        purpose: 'login',
      }),
    ).toThrow(/not valid/);
  });

  it('spends a recovery code once, and rotation kills the old set', () => {
    expect(
      decideFrom(mfaDecider, enrolled, { kind: 'useRecoveryCode', userId: u, codeDigest: 'r1' }),
    ).toEqual([RecoveryCodeUsed({ userId: u, codeDigest: 'r1' })]);
    const used = [...enrolled, RecoveryCodeUsed({ userId: u, codeDigest: 'r1' })];
    expect(() =>
      decideFrom(mfaDecider, used, { kind: 'useRecoveryCode', userId: u, codeDigest: 'r1' }),
    ).toThrow(/not valid/);
    const rotated = [...enrolled, RecoveryCodesRotated({ userId: u, recoveryCodeDigests: ['n1'] })];
    expect(() =>
      decideFrom(mfaDecider, rotated, { kind: 'useRecoveryCode', userId: u, codeDigest: 'r2' }),
    ).toThrow(/not valid/);
  });

  it('disables with a fresh code, and then refuses MFA operations', () => {
    expect(decideFrom(mfaDecider, enrolled, { kind: 'disable', userId: u, timeStep: 102 })).toEqual(
      [
        TotpCodeAccepted({ userId: u, timeStep: 102, purpose: 'disable' }),
        MfaDisabled({ userId: u }),
      ],
    );
    expect(() =>
      decideFrom(mfaDecider, [...enrolled, MfaDisabled({ userId: u })], {
        kind: 'useRecoveryCode',
        userId: u,
        codeDigest: 'r2',
      }),
    ).toThrow(/not enrolled/);
  });
});
