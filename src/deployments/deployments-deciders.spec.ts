import { describe, expect, it } from '@jest/globals';
import { decideFrom } from '../storage/decider.js';
import { catalogDecider } from './catalog.decider.js';
import {
  DeploymentCancellationRequested,
  DeploymentCancelled,
  DeploymentFailed,
  DeploymentStarted,
  DeploymentSucceeded,
  DeploymentTriggered,
  ServerComposePolicySet,
  ServerHostKeyApproved,
  ServerRegistered,
  ServiceRegistered,
  ServiceUpdated,
} from './deployments.events.js';
import { fleetDecider } from './fleet.decider.js';
import { serviceDeploymentsDecider as queue } from './service-deployments.decider.js';

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
const requester = {
  principalId: 'p1',
  kind: 'user',
  role: 'operator',
  authMethod: 'session',
  tokenId: null,
};
const snapshot = {
  serviceName: 'api',
  environment: 'production',
  serverId: 's1',
  imageRef: 'ghcr.io/acme/api:1',
  compose: '',
  env: [],
  healthCheckUrl: null,
};
const trigger = (
  deploymentId: string,
  extra: Partial<Parameters<typeof DeploymentTriggered>[0]> = {},
) => ({
  deploymentId,
  serviceId: 'svc',
  imageRef: 'ghcr.io/acme/api:1',
  trigger: 'session' as const,
  requestedBy: requester,
  snapshot,
  rollbackOf: null,
  approvalId: null,
  idempotencyKey: null,
  inputDigest: null,
  ...extra,
});
const triggered = (id: string, sequence: number, extra = {}) =>
  DeploymentTriggered({ ...trigger(id, extra), sequence });

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

describe('service deployments decider (the state machine)', () => {
  it('numbers triggers in FIFO order', () => {
    expect(
      decideFrom(queue, [triggered('d1', 1)], { kind: 'trigger', event: trigger('d2') }),
    ).toEqual([triggered('d2', 2)]);
  });

  it('returns nothing new for a repeated idempotency key and refuses it with other input', () => {
    const given = [triggered('d1', 1, { idempotencyKey: 'k', inputDigest: 'h1' })];
    expect(
      decideFrom(queue, given, {
        kind: 'trigger',
        event: trigger('d2', { idempotencyKey: 'k', inputDigest: 'h1' }),
      }),
    ).toEqual([]);
    expect(() =>
      decideFrom(queue, given, {
        kind: 'trigger',
        event: trigger('d2', { idempotencyKey: 'k', inputDigest: 'h2' }),
      }),
    ).toThrow(/different request/);
  });

  it('starts only the oldest queued, and only when none runs', () => {
    const given = [triggered('d1', 1), triggered('d2', 2)];
    expect(() =>
      decideFrom(queue, given, { kind: 'start', deploymentId: 'd2', runnerId: 'r' }),
    ).toThrow(/older deployment/);
    expect(decideFrom(queue, given, { kind: 'start', deploymentId: 'd1', runnerId: 'r' })).toEqual([
      DeploymentStarted({ deploymentId: 'd1', runnerId: 'r' }),
    ]);
    const running = [...given, DeploymentStarted({ deploymentId: 'd1', runnerId: 'r' })];
    expect(() =>
      decideFrom(queue, running, { kind: 'start', deploymentId: 'd2', runnerId: 'r' }),
    ).toThrow(/running/);
    const done = [
      ...running,
      DeploymentSucceeded({
        deploymentId: 'd1',
        serviceId: 'svc',
        imageRef: 'ghcr.io/acme/api:1',
        imageDigest: null,
      }),
    ];
    expect(
      decideFrom(queue, done, { kind: 'start', deploymentId: 'd2', runnerId: 'r' }),
    ).toHaveLength(1);
  });

  it('cancels a queued deployment at once and asks a running one to stop', () => {
    expect(
      decideFrom(queue, [triggered('d1', 1)], { kind: 'cancel', deploymentId: 'd1', reason: 'r' }),
    ).toEqual([DeploymentCancelled({ deploymentId: 'd1', reason: 'r' })]);
    const running = [triggered('d1', 1), DeploymentStarted({ deploymentId: 'd1', runnerId: 'r' })];
    expect(decideFrom(queue, running, { kind: 'cancel', deploymentId: 'd1', reason: 'r' })).toEqual(
      [DeploymentCancellationRequested({ deploymentId: 'd1', reason: 'r' })],
    );
    expect(
      decideFrom(
        queue,
        [...running, DeploymentCancellationRequested({ deploymentId: 'd1', reason: 'r' })],
        { kind: 'cancel', deploymentId: 'd1', reason: 'r' },
      ),
    ).toEqual([]);
  });

  it('refuses to cancel a finished deployment (409) and to finish one that is not running', () => {
    const failed = [
      triggered('d1', 1),
      DeploymentStarted({ deploymentId: 'd1', runnerId: 'r' }),
      DeploymentFailed({ deploymentId: 'd1', reason: 'x', step: null }),
    ];
    expect(() =>
      decideFrom(queue, failed, { kind: 'cancel', deploymentId: 'd1', reason: 'r' }),
    ).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    expect(() =>
      decideFrom(queue, [triggered('d1', 1)], {
        kind: 'succeed',
        deploymentId: 'd1',
        serviceId: 'svc',
        imageRef: 'x:1',
        imageDigest: null,
      }),
    ).toThrow(/not running/);
    expect(() =>
      decideFrom(queue, [], { kind: 'cancel', deploymentId: 'zz', reason: 'r' }),
    ).toThrow(/No such deployment/);
  });
});
