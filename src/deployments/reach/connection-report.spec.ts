import { describe, expect, it } from '@jest/globals';
import { anonymousContext, type RequestContext } from '../../kernel/request-context.js';
import { AddressRefusedError } from './address-gate.js';
import { classifyFailure, failedReport, reportFor } from './connection-report.js';
import { HostKeyMismatchError } from './ssh-connect.js';

const withLevel = (message: string, level: string, code?: string) =>
  Object.assign(new Error(message), { level, code });

const caller = (role: 'owner' | 'admin' | 'operator' | 'agent'): RequestContext => ({
  ...anonymousContext('r', 'c', null),
  principal: { id: 'p', kind: role === 'agent' ? 'agent' : 'user', role, name: role },
});

describe('classifyFailure: what an address gate or ssh2 error means', () => {
  it.each([
    [new AddressRefusedError('refused', 'a loopback address'), 'address-refused'],
    [new AddressRefusedError('unresolved', 'x does not resolve'), 'unresolved'],
    [withLevel('Timed out while waiting for handshake', 'client-timeout'), 'timeout'],
    [withLevel('connect ECONNREFUSED 10.0.0.1:22', 'client-socket', 'ECONNREFUSED'), 'refused'],
    [withLevel('connect EHOSTUNREACH', 'client-socket', 'EHOSTUNREACH'), 'unreachable'],
    [withLevel('read ECONNRESET', 'client-socket', 'ECONNRESET'), 'no-ssh-server'],
    [withLevel('Connection lost before handshake', 'protocol'), 'no-ssh-server'],
    [new Error('Connection lost before handshake'), 'no-ssh-server'],
    [withLevel('Handshake failed: no matching key exchange', 'handshake'), 'handshake-failed'],
    [new HostKeyMismatchError('SHA256:a', 'SHA256:b'), 'host-key-mismatch'],
    [
      withLevel('All configured authentication methods failed', 'client-authentication'),
      'auth-failed',
    ],
    [new Error('Cannot parse privateKey: Unsupported key format'), 'key-unusable'],
    ['something else', 'error'],
  ])('%s is %s', (error, cls) => {
    expect(classifyFailure(error).class).toBe(cls);
  });

  it('keeps the message, without a doubled error name', () => {
    const error = withLevel(
      'Error: connect ECONNREFUSED 10.0.0.1:22',
      'client-socket',
      'ECONNREFUSED',
    );
    expect(classifyFailure(error)).toEqual({
      class: 'refused',
      message: 'connect ECONNREFUSED 10.0.0.1:22',
    });
  });
});

describe('failedReport: how far a failed connection got', () => {
  it('a refused TCP connection reached nothing; a wrong host key did reach an SSH server', () => {
    expect(
      failedReport('login', '10.0.0.1', { class: 'refused', message: 'ECONNREFUSED' }),
    ).toMatchObject({ ok: false, reachable: false, hostKeyMatches: null, authenticated: null });
    expect(
      failedReport('login', '10.0.0.1', { class: 'host-key-mismatch', message: 'x' }),
    ).toMatchObject({ reachable: true, hostKeyMatches: false, authenticated: null });
    expect(failedReport('login', '10.0.0.1', { class: 'auth-failed', message: 'x' })).toMatchObject(
      { reachable: true, hostKeyMatches: true, authenticated: false },
    );
    expect(
      failedReport('handshake', '10.0.0.1', { class: 'auth-failed', message: 'x' }),
    ).toMatchObject({ authenticated: null });
  });
});

describe('reportFor: the uniform failure below admin', () => {
  const failed = failedReport('login', '10.0.0.1', { class: 'refused', message: 'ECONNREFUSED' });

  it('shows owners and admins the cause', () => {
    expect(reportFor(failed, caller('owner'))).toEqual(failed);
    expect(reportFor(failed, caller('admin'))).toEqual(failed);
  });

  it('tells operators and agents only "could not connect", whatever the cause', () => {
    for (const role of ['operator', 'agent'] as const) {
      expect(reportFor(failed, caller(role))).toEqual({
        ok: false,
        mode: 'login',
        address: null,
        reachable: null,
        hostKeyMatches: null,
        authenticated: null,
        latencyMs: null,
        error: { class: 'connect-failed', message: 'could not connect to the server' },
      });
    }
  });

  it('leaves a success as it is', () => {
    const ok = { ...failed, ok: true, reachable: true, error: null };
    expect(reportFor(ok, caller('operator'))).toEqual(ok);
  });
});
