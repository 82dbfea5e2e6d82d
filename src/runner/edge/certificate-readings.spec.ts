import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { LOG_MARK, readCertificates } from './certificate-readings.js';

/** A self-signed certificate for shop.example.com, valid from 2026-11-28 for 90 days. */
const PEM = readFileSync(new URL('./fixtures/shop.example.com.crt', import.meta.url), 'utf8');
const STORE = '/data/caddy/certificates/acme.example-directory';
const log = (entry: Record<string, unknown>) => JSON.stringify(entry);

describe('reading the certificates an edge proxy holds', () => {
  it('given a stored certificate, reads its issuer, validity, serial and fingerprint', () => {
    const output = `== ${STORE}/shop.example.com/shop.example.com.crt\n${PEM}\n${LOG_MARK}\n`;
    expect(readCertificates(output).get('shop.example.com')).toEqual({
      certificate: {
        issuer: 'CN=shop.example.com',
        notBefore: '2026-11-28T04:10:58.000Z',
        notAfter: '2027-02-26T04:10:58.000Z',
        serialNumber: '69D77DDA68DA663F8D37D9A49CBC2D7A21C2D989',
        fingerprint:
          '71:AD:EE:D4:BC:23:22:7E:17:F2:59:A4:17:90:87:C8:FB:EA:4C:24:66:45:3E:09:78:26:1F:0A:58:DA:3B:84',
      },
      failure: null,
    });
  });

  it('given an error logged after the last success, the domain fails with the CA’s answer', () => {
    const output = [
      LOG_MARK,
      log({
        level: 'info',
        ts: 100,
        msg: 'certificate obtained successfully',
        identifier: 'a.test',
      }),
      log({
        level: 'error',
        ts: 90,
        msg: 'could not get certificate',
        identifier: 'a.test',
        error: 'old',
      }),
      log({
        level: 'error',
        ts: 200.5,
        logger: 'tls.obtain',
        msg: 'could not get certificate from issuer',
        identifier: 'b.test',
        error: 'HTTP 400 urn:ietf:params:acme:error:connection - refused\u001b[31m',
      }),
      'not json',
      log({ level: 'error', ts: 300, msg: 'no identifier' }),
    ].join('\n');
    const readings = readCertificates(`\n${output}`);
    expect(readings.get('a.test')).toBeUndefined();
    expect(readings.get('b.test')).toEqual({
      certificate: null,
      failure: {
        reason:
          'could not get certificate from issuer: HTTP 400 urn:ietf:params:acme:error:connection - refused [31m',
        at: '1970-01-01T00:03:20.500Z',
      },
    });
  });

  it('given an attempt that logs several errors, the reason is the CA’s problem document', () => {
    const output = [
      LOG_MARK,
      log({
        level: 'error',
        ts: 1,
        msg: 'challenge failed',
        identifier: 'a.test',
        error: 'HTTP 400 urn:ietf:params:acme:error:connection - refused',
      }),
      log({
        level: 'error',
        ts: 2,
        msg: 'could not get certificate from issuer',
        identifier: 'a.test',
        error: 'no solvers available',
      }),
    ].join('\n');
    expect(readCertificates(`\n${output}`).get('a.test')?.failure).toEqual({
      reason: 'challenge failed: HTTP 400 urn:ietf:params:acme:error:connection - refused',
      at: '1970-01-01T00:00:02.000Z',
    });
  });

  it('gives one failure the same words from attempt to attempt (no token, no order URL)', () => {
    const attempt = (token: string, order: string) =>
      log({
        level: 'error',
        ts: 1,
        msg: 'could not get certificate from issuer',
        identifier: 'a.test',
        error: `HTTP 400 urn:ietf:params:acme:error:connection - Get "http://a.test:80/.well-known/acme-challenge/${token}": refused (order=https://ca.test:14000/my-order/${order})`,
      });
    const reasons = [attempt('skapQm-R_1', 'yX4l'), attempt('k-A8my_2', 'Q9zz')].map(
      (line) => readCertificates(`\n${LOG_MARK}\n${line}`).get('a.test')?.failure?.reason,
    );
    expect(reasons[0]).toBe(reasons[1]);
    expect(reasons[0]).toBe(
      'could not get certificate from issuer: HTTP 400 urn:ietf:params:acme:error:connection - Get "http://a.test:80/.well-known/acme-challenge/…": refused (order=https://ca.test:14000/…)',
    );
  });

  it('given a success after the failure, the domain no longer fails', () => {
    const output = [
      LOG_MARK,
      log({
        level: 'error',
        ts: 1,
        msg: 'could not get certificate',
        identifier: 'a.test',
        error: 'x',
      }),
      log({ level: 'info', ts: 2, msg: 'certificate obtained successfully', identifier: 'a.test' }),
    ].join('\n');
    expect(readCertificates(`\n${output}`).get('a.test')?.failure).toBeNull();
  });

  it('skips files that are not a domain’s certificate or do not parse', () => {
    const output = [
      `== ${STORE}/x.test/x.test.json`,
      '{}',
      `== ${STORE}/y.test/y.test.crt`,
      '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
      LOG_MARK,
    ].join('\n');
    expect([...readCertificates(output).keys()]).toEqual([]);
  });
});
