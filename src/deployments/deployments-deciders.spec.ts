import { describe, expect, it } from '@jest/globals';
import { decideFrom } from '../storage/decider.js';
import { approvalDecider } from './approval.decider.js';
import { catalogDecider } from './catalog.decider.js';
import {
  ApprovalExecuted,
  ApprovalGranted,
  ApprovalRejected,
  ApprovalRequested,
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
const requester = {
  principalId: 'p1',
  kind: 'user',
  role: 'operator',
  authMethod: 'session',
  tokenId: null,
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

describe('approval decider', () => {
  const requested = ApprovalRequested({
    approvalId: 'a1',
    action: 'deploy',
    serviceId: 'svc',
    payload: {},
    reason: 'ship the fix today',
    requestedBy: requester,
    expiresAt: new Date(10_000).toISOString(),
  });
  const decide = (approve: boolean, decidedBy: string, now = 1000) => ({
    kind: 'decide' as const,
    approvalId: 'a1',
    approve,
    decidedBy,
    note: null,
    now,
  });

  it('lets someone else approve or reject a pending request', () => {
    expect(decideFrom(approvalDecider, [requested], decide(true, 'p2'))).toEqual([
      ApprovalGranted({ approvalId: 'a1', decidedBy: 'p2', note: null }),
    ]);
    expect(decideFrom(approvalDecider, [requested], decide(false, 'p2'))).toEqual([
      ApprovalRejected({ approvalId: 'a1', decidedBy: 'p2', note: null }),
    ]);
  });

  it('refuses self-approval, decisions after expiry, and deciding twice', () => {
    expect(() => decideFrom(approvalDecider, [requested], decide(true, 'p1'))).toThrow(
      /own request/,
    );
    expect(() => decideFrom(approvalDecider, [requested], decide(true, 'p2', 20_000))).toThrow(
      /expired/,
    );
    const rejected = [
      requested,
      ApprovalRejected({ approvalId: 'a1', decidedBy: 'p2', note: null }),
    ];
    expect(() => decideFrom(approvalDecider, rejected, decide(true, 'p3'))).toThrow(
      /already rejected/,
    );
  });

  it('records the execution of an approved request once', () => {
    const approved = [
      requested,
      ApprovalGranted({ approvalId: 'a1', decidedBy: 'p2', note: null }),
    ];
    expect(
      decideFrom(approvalDecider, approved, {
        kind: 'executed',
        approvalId: 'a1',
        deploymentId: 'd1',
      }),
    ).toEqual([ApprovalExecuted({ approvalId: 'a1', deploymentId: 'd1' })]);
    expect(
      decideFrom(
        approvalDecider,
        [...approved, ApprovalExecuted({ approvalId: 'a1', deploymentId: 'd1' })],
        { kind: 'executed', approvalId: 'a1', deploymentId: 'd1' },
      ),
    ).toEqual([]);
    expect(() =>
      decideFrom(approvalDecider, [requested], {
        kind: 'executed',
        approvalId: 'a1',
        deploymentId: 'd1',
      }),
    ).toThrow(/Only an approved/);
  });
});
