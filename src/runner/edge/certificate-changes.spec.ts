import { describe, expect, it } from '@jest/globals';
import type { EdgeCertificateDoc } from '../../../projections/edge-certificates.projection.js';
import { certificateChanges } from './certificate-changes.js';
import type { DomainReading, HeldCertificate } from './certificate-readings.js';

const held = (fingerprint: string, notAfter = '2027-02-26T00:00:00.000Z'): HeldCertificate => ({
  issuer: 'CN=Test CA',
  notBefore: '2026-11-28T00:00:00.000Z',
  notAfter,
  serialNumber: '01',
  fingerprint,
});
const known = (fields: Partial<EdgeCertificateDoc>): EdgeCertificateDoc => ({
  id: 's1:shop.test',
  serverId: 's1',
  domain: 'shop.test',
  status: 'issued',
  issuer: 'CN=Test CA',
  notBefore: '2026-11-28T00:00:00.000Z',
  notAfter: '2027-02-26T00:00:00.000Z',
  serialNumber: '01',
  fingerprint: 'AA',
  lastError: null,
  lastErrorAt: null,
  expiryNoticedFor: null,
  updatedAt: '2026-11-28T00:00:00.000Z',
  ...fields,
});
const at = {
  serverId: 's1',
  domain: 'shop.test',
  now: new Date('2026-12-01T00:00:00Z'),
  warnDays: 14,
};
const when = (doc: EdgeCertificateDoc | null, reading: DomainReading, now = at.now) =>
  certificateChanges(doc, reading, { ...at, now }).map((e) => [e.type, e.data]);
const failure = { reason: 'connection refused', at: '2026-12-01T00:00:00.000Z' };

describe('what a look at a certificate records', () => {
  it('given nothing known, a held certificate is observed', () => {
    expect(when(null, { certificate: held('AA'), failure: null })).toEqual([
      ['EdgeCertificateObserved', { serverId: 's1', domain: 'shop.test', ...held('AA') }],
    ]);
  });

  it('given the same certificate known, nothing is recorded', () => {
    expect(when(known({}), { certificate: held('AA'), failure: null })).toEqual([]);
  });

  it('given a renewal, the new certificate is observed', () => {
    expect(when(known({}), { certificate: held('BB'), failure: null })).toEqual([
      ['EdgeCertificateObserved', { serverId: 's1', domain: 'shop.test', ...held('BB') }],
    ]);
  });

  it('given a failure, it is recorded once per failing spell; a new reason is shown, not notified', () => {
    const data = {
      serverId: 's1',
      domain: 'shop.test',
      reason: 'connection refused',
      failedAt: failure.at,
    };
    expect(when(null, { certificate: null, failure })).toEqual([['EdgeCertificateFailed', data]]);
    const failing = known({
      status: 'failing',
      fingerprint: null,
      lastError: 'connection refused',
    });
    const later = { ...failure, at: '2026-12-01T01:00:00.000Z' };
    expect(when(failing, { certificate: null, failure: later })).toEqual([]);
    expect(when(failing, { certificate: null, failure: { ...later, reason: 'timeout' } })).toEqual([
      ['EdgeCertificateStillFailing', { ...data, reason: 'timeout', failedAt: later.at }],
    ]);
  });

  it('given a failure logged before the certificate now held, it is history', () => {
    const old = { reason: 'x', at: '2026-11-27T00:00:00.000Z' };
    expect(when(known({}), { certificate: held('AA'), failure: old })).toEqual([]);
  });

  it('given a certificate within the warning window, its expiry is notified once', () => {
    const soon = held('AA', '2026-12-10T12:00:00.000Z');
    expect(when(known({ notAfter: soon.notAfter }), { certificate: soon, failure: null })).toEqual([
      [
        'EdgeCertificateExpiring',
        {
          serverId: 's1',
          domain: 'shop.test',
          notAfter: soon.notAfter,
          daysLeft: 9,
          fingerprint: 'AA',
        },
      ],
    ]);
    expect(
      when(known({ notAfter: soon.notAfter, expiryNoticedFor: 'AA' }), {
        certificate: soon,
        failure: null,
      }),
    ).toEqual([]);
    // Outside the window: nothing.
    expect(when(known({}), { certificate: held('AA'), failure: null })).toEqual([]);
  });
});
