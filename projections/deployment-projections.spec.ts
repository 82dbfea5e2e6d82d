import { describe, expect, it } from '@jest/globals';
import {
  ApprovalExecuted,
  ApprovalGranted,
  ApprovalRequested,
  DeploymentStarted,
  DeploymentStepFinished,
  DeploymentStepStarted,
  DeploymentSucceeded,
  DeploymentTriggered,
  ServerConnectionChecked,
  ServerHostKeyApproved,
  ServerRegistered,
  ServiceRegistered,
} from '../src/events/deployments.events.js';
import { approvalsProjection } from './approvals.projection.js';
import { deploymentsProjection } from './deployments.projection.js';
import { projectInMemory } from './project-in-memory.js';
import { serversProjection } from './servers.projection.js';
import { at, given } from './testing/given-events.js';
import { givenProjection } from './testing/given-projection.js';
import { servicesProjection } from './services.projection.js';

const requester = {
  principalId: 'p1',
  kind: 'agent',
  role: 'agent',
  authMethod: 'token',
  tokenId: 't1',
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
const triggered = DeploymentTriggered({
  deploymentId: 'd1',
  serviceId: 'svc',
  sequence: 1,
  imageRef: 'ghcr.io/acme/api:1',
  trigger: 'approval',
  requestedBy: requester,
  snapshot,
  rollbackOf: null,
  approvalId: 'a1',
  idempotencyKey: 'approval:a1',
  inputDigest: 'h',
});

describe('deployments projection', () => {
  it('follows a deployment from trigger through steps to success', () => {
    givenProjection(deploymentsProjection)
      .given(
        triggered,
        DeploymentStarted({ deploymentId: 'd1', runnerId: 'r' }),
        DeploymentStepStarted({ deploymentId: 'd1', step: 'pull' }),
        DeploymentStepFinished({ deploymentId: 'd1', step: 'pull', ok: true, detail: null }),
        DeploymentSucceeded({
          deploymentId: 'd1',
          serviceId: 'svc',
          imageRef: 'ghcr.io/acme/api:1',
          imageDigest: 'sha256:x',
        }),
      )
      .thenMatches({
        deployments: {
          d1: {
            status: 'succeeded',
            order: 1,
            sequence: 1,
            trigger: 'approval',
            requestedBy: requester,
            approvalId: 'a1',
            startedAt: at(1),
            finishedAt: at(4),
            imageDigest: 'sha256:x',
            steps: [{ step: 'pull', startedAt: at(2), finishedAt: at(3), ok: true, detail: null }],
          },
        },
      });
  });
});

describe('services projection', () => {
  it('tracks the image of the last succeeded deployment', () => {
    givenProjection(servicesProjection)
      .given(
        ServiceRegistered({
          serviceId: 'svc',
          name: 'api',
          environment: 'production',
          serverId: 's1',
          imageRepository: 'ghcr.io/acme/api',
          compose: '',
          env: [],
          approvalRule: 'none',
          healthCheckUrl: null,
          backupCommand: null,
        }),
        DeploymentSucceeded({
          deploymentId: 'd1',
          serviceId: 'svc',
          imageRef: 'ghcr.io/acme/api:1',
          imageDigest: null,
        }),
      )
      .thenMatches({
        services: {
          svc: { currentImage: 'ghcr.io/acme/api:1', currentDeploymentId: 'd1' },
        },
      });
  });
});

describe('approvals projection', () => {
  it('records the decision and the deployment an approval executed', () => {
    givenProjection(approvalsProjection)
      .given(
        ApprovalRequested({
          approvalId: 'a1',
          action: 'deploy',
          serviceId: 'svc',
          payload: { imageRef: 'x:1' },
          reason: 'ship the billing fix',
          requestedBy: requester,
          expiresAt: at(3600),
        }),
        ApprovalGranted({ approvalId: 'a1', decidedBy: 'p2', note: 'ok' }),
        ApprovalExecuted({ approvalId: 'a1', deploymentId: 'd1' }),
      )
      .thenMatches({
        approvals: {
          a1: {
            status: 'approved',
            decidedBy: 'p2',
            decidedAt: at(1),
            note: 'ok',
            executedDeploymentId: 'd1',
            requestedAt: at(0),
          },
        },
      });
  });
});

describe('servers projection', () => {
  it('keeps the latest connection check, without the cause of a failure', () => {
    const check = { serverId: 's1', mode: 'login' as const, address: '10.0.0.7' };
    const model = projectInMemory(
      serversProjection,
      given([
        ServerRegistered({
          serverId: 's1',
          name: 'web-1',
          host: '10.0.0.7',
          sshPort: 22,
          sshUser: 'deploy',
          credentialCiphertext: 'c',
          hostKeyFingerprint: 'SHA256:abc',
          labels: {},
        }),
        ServerHostKeyApproved({ serverId: 's1', fingerprint: 'SHA256:abc' }),
        ServerConnectionChecked({ ...check, ok: true, failure: null, latencyMs: 42 }),
        ServerConnectionChecked({ ...check, ok: false, failure: 'timeout', latencyMs: null }),
      ]),
    );
    expect(model.servers.s1).toMatchObject({
      status: 'ready',
      lastCheck: { at: at(3), mode: 'login', ok: false, latencyMs: null },
    });
    expect(JSON.stringify(model.servers.s1)).not.toContain('timeout');
  });
});
