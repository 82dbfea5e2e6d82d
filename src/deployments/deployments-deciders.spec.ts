import { describe, expect, it } from '@jest/globals';
import { decideFrom } from '../storage/decider.js';
import { catalogDecider } from './catalog.decider.js';
import {
  ServerComposePolicySet,
  ServerHostKeyApproved,
  ServerRegistered,
  ServiceRegistered,
  ServiceUpdated,
} from './deployments.events.js';
import { fleetDecider } from './fleet.decider.js';

const server = {
  serverId: 's1',
  name: 'web-1',
  host: '127.0.0.5',
  sshPort: 22,
  sshUser: 'deploy',
  credentialCiphertext: 'c',
  hostKeyFingerprint: 'SHA256:abc',
  labels: {},
};
const service = {
  serviceId: 'svc',
  name: 'api',
  environment: 'production',
  serverId: 's1',
  imageRepository: 'ghcr.io/acme/api',
  compose: 'services: {}',
  env: [],
  approvalRule: 'none' as const,
  healthCheckUrl: null,
  backupCommand: null,
};

describe('fleet decider', () => {
  it('registers unique names and approves only the pinned host key, once', () => {
    expect(decideFrom(fleetDecider, [], { kind: 'register', event: server })).toEqual([
      ServerRegistered(server),
    ]);
    expect(() =>
      decideFrom(fleetDecider, [ServerRegistered(server)], {
        kind: 'register',
        event: { ...server, serverId: 's2' },
      }),
    ).toThrow(/already exists/);
    expect(
      decideFrom(fleetDecider, [ServerRegistered(server)], {
        kind: 'approveHostKey',
        serverId: 's1',
        fingerprint: 'SHA256:abc',
      }),
    ).toEqual([ServerHostKeyApproved({ serverId: 's1', fingerprint: 'SHA256:abc' })]);
    expect(() =>
      decideFrom(fleetDecider, [ServerRegistered(server)], {
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
      decideFrom(fleetDecider, approved, {
        kind: 'approveHostKey',
        serverId: 's1',
        fingerprint: 'SHA256:abc',
      }),
    ).toEqual([]);
  });

  it('records a server’s compose policy as a sorted set; the same set again is no event', () => {
    const given = [ServerRegistered(server)];
    expect(
      decideFrom(fleetDecider, given, {
        kind: 'setComposePolicy',
        serverId: 's1',
        allow: ['privileged', 'hostNetwork', 'privileged'],
      }),
    ).toEqual([ServerComposePolicySet({ serverId: 's1', allow: ['hostNetwork', 'privileged'] })]);
    const set = ServerComposePolicySet({ serverId: 's1', allow: ['hostNetwork', 'privileged'] });
    expect(
      decideFrom(fleetDecider, [...given, set], {
        kind: 'setComposePolicy',
        serverId: 's1',
        allow: ['privileged', 'hostNetwork'],
      }),
    ).toEqual([]);
    expect(() =>
      decideFrom(fleetDecider, given, { kind: 'setComposePolicy', serverId: 's9', allow: [] }),
    ).toThrow(/No such server/);
  });
});

describe('catalog decider', () => {
  it('keeps name + environment unique and updates only known services', () => {
    expect(decideFrom(catalogDecider, [], { kind: 'register', event: service })).toEqual([
      ServiceRegistered(service),
    ]);
    expect(() =>
      decideFrom(catalogDecider, [ServiceRegistered(service)], {
        kind: 'register',
        event: { ...service, serviceId: 'x' },
      }),
    ).toThrow(/already exists/);
    expect(
      decideFrom(catalogDecider, [ServiceRegistered(service)], {
        kind: 'register',
        event: { ...service, serviceId: 'x', environment: 'staging' },
      }),
    ).toHaveLength(1);
    expect(
      decideFrom(catalogDecider, [ServiceRegistered(service)], {
        kind: 'update',
        event: { serviceId: 'svc', changes: { approvalRule: 'agents' } },
      }),
    ).toEqual([ServiceUpdated({ serviceId: 'svc', changes: { approvalRule: 'agents' } })]);
    expect(() =>
      decideFrom(catalogDecider, [], { kind: 'update', event: { serviceId: 'svc', changes: {} } }),
    ).toThrow(/No such service/);
  });
});
