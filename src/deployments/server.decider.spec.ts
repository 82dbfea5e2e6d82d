import { describe, expect, it } from '@jest/globals';
import { decideFrom } from '../storage/decider.js';
import {
  ServerComposePolicySet,
  ServerConnectionChecked,
  ServerHostKeyApproved,
  ServerRegistered,
} from '../events/deployments.events.js';
import { fleetDecider, fleetHasName } from './fleet.decider.js';
import { serverDecider } from './server.decider.js';
import { SERVER as server } from './testing/catalog-fixtures.js';

describe('server decider (one server on the stream of its name)', () => {
  it('registers unique names and approves only the pinned host key, once', () => {
    expect(decideFrom(serverDecider, [], { kind: 'register', event: server })).toEqual([
      ServerRegistered(server),
    ]);
    expect(() =>
      decideFrom(serverDecider, [ServerRegistered(server)], {
        kind: 'register',
        event: { ...server, serverId: 's2' },
      }),
    ).toThrow(/already exists/);
    expect(
      decideFrom(serverDecider, [ServerRegistered(server)], {
        kind: 'approveHostKey',
        serverId: 's1',
        fingerprint: 'SHA256:abc',
      }),
    ).toEqual([ServerHostKeyApproved({ serverId: 's1', fingerprint: 'SHA256:abc' })]);
    expect(() =>
      decideFrom(serverDecider, [ServerRegistered(server)], {
        kind: 'approveHostKey',
        serverId: 's1',
        fingerprint: 'SHA256:evil',
      }),
    ).toThrow(/does not match/);
    const approved = [
      ServerRegistered(server),
      ServerHostKeyApproved({ serverId: 's1', fingerprint: 'SHA256:abc' }),
    ];
    expect(
      decideFrom(serverDecider, approved, {
        kind: 'approveHostKey',
        serverId: 's1',
        fingerprint: 'SHA256:abc',
      }),
    ).toEqual([]);
  });

  it('records a connection check of a known server as it came out, each time', () => {
    const check = {
      mode: 'login' as const,
      address: '127.0.0.5',
      ok: false,
      failure: 'auth-failed',
      latencyMs: null,
    };
    const given = [ServerRegistered(server), ServerConnectionChecked({ serverId: 's1', ...check })];
    expect(
      decideFrom(serverDecider, given, { kind: 'recordCheck', serverId: 's1', check }),
    ).toEqual([ServerConnectionChecked({ serverId: 's1', ...check })]);
    expect(() =>
      decideFrom(serverDecider, [ServerRegistered(server)], {
        kind: 'recordCheck',
        serverId: 's2',
        check,
      }),
    ).toThrow(/No such server/);
  });

  it('records a server’s compose policy as a sorted set; the same set again is no event', () => {
    const given = [ServerRegistered(server)];
    expect(
      decideFrom(serverDecider, given, {
        kind: 'setComposePolicy',
        serverId: 's1',
        allow: ['privileged', 'hostNetwork', 'privileged'],
      }),
    ).toEqual([ServerComposePolicySet({ serverId: 's1', allow: ['hostNetwork', 'privileged'] })]);
    const set = ServerComposePolicySet({ serverId: 's1', allow: ['hostNetwork', 'privileged'] });
    expect(
      decideFrom(serverDecider, [...given, set], {
        kind: 'setComposePolicy',
        serverId: 's1',
        allow: ['privileged', 'hostNetwork'],
      }),
    ).toEqual([]);
    expect(() =>
      decideFrom(serverDecider, given, { kind: 'setComposePolicy', serverId: 's9', allow: [] }),
    ).toThrow(/No such server/);
  });
});

describe('legacy fleet decider (servers registered before they had their own streams)', () => {
  const other = { ...server, serverId: 's2', name: 'web-2', hostKeyFingerprint: 'SHA256:def' };
  const given = [
    ServerRegistered(server),
    ServerRegistered(other),
    ServerHostKeyApproved({ serverId: 's1', fingerprint: 'SHA256:abc' }),
  ];

  it('keeps deciding each legacy server by the same rules as a server’s own stream', () => {
    expect(
      decideFrom(fleetDecider, given, {
        kind: 'approveHostKey',
        serverId: 's2',
        fingerprint: 'SHA256:def',
      }),
    ).toEqual([ServerHostKeyApproved({ serverId: 's2', fingerprint: 'SHA256:def' })]);
    expect(
      decideFrom(fleetDecider, given, {
        kind: 'approveHostKey',
        serverId: 's1',
        fingerprint: 'SHA256:abc',
      }),
    ).toEqual([]);
    expect(() =>
      decideFrom(fleetDecider, given, {
        kind: 'approveHostKey',
        serverId: 's2',
        fingerprint: 'SHA256:abc',
      }),
    ).toThrow(/does not match/);
  });

  it('knows the names it holds, so a new registration cannot take one', () => {
    const state = given.reduce((s, e) => fleetDecider.evolve(s, e), fleetDecider.initialState());
    expect(fleetHasName(state, 'web-2')).toBe(true);
    expect(fleetHasName(state, 'web-3')).toBe(false);
  });
});
