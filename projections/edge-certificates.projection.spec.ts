import { describe, it } from '@jest/globals';
import {
  EdgeCertificateExpiring,
  EdgeCertificateFailed,
  EdgeCertificateObserved,
  EdgeCertificateStillFailing,
} from '../src/events/edge-certificates.events.js';
import { edgeCertificatesProjection } from './edge-certificates.projection.js';
import { at } from './testing/given-events.js';
import { givenProjection } from './testing/given-projection.js';

const where = { serverId: 's1', domain: 'shop.test' };
const certificate = {
  ...where,
  issuer: 'CN=Pebble Intermediate CA',
  notBefore: '2026-11-28T00:00:00.000Z',
  notAfter: '2027-02-26T00:00:00.000Z',
  serialNumber: '0A',
  fingerprint: 'AA:BB',
};

describe('edge_certificates projection', () => {
  it('given a failure, then another reason, then a certificate: issued, the last error kept', () => {
    givenProjection(edgeCertificatesProjection)
      .given(
        EdgeCertificateFailed({ ...where, reason: 'refused', failedAt: at(0) }),
        EdgeCertificateStillFailing({ ...where, reason: 'timeout', failedAt: at(1) }),
        EdgeCertificateObserved(certificate),
      )
      .then({
        edge_certificates: {
          's1:shop.test': {
            id: 's1:shop.test',
            ...certificate,
            status: 'issued',
            lastError: 'timeout',
            lastErrorAt: at(1),
            expiryNoticedFor: null,
            updatedAt: at(2),
          },
        },
      });
  });

  it('given a certificate and its expiry notice, the notice names the certificate', () => {
    givenProjection(edgeCertificatesProjection)
      .given(
        EdgeCertificateObserved(certificate),
        EdgeCertificateExpiring({
          ...where,
          notAfter: certificate.notAfter,
          daysLeft: 9,
          fingerprint: 'AA:BB',
        }),
        EdgeCertificateFailed({ ...where, reason: 'rate limited', failedAt: at(2) }),
      )
      .thenMatches({
        edge_certificates: {
          's1:shop.test': {
            status: 'failing',
            notAfter: certificate.notAfter,
            expiryNoticedFor: 'AA:BB',
            lastError: 'rate limited',
          },
        },
      });
  });
});
