import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  DeploymentFailed,
  DeploymentStarted,
  DeploymentStepFinished,
  DeploymentStepStarted,
  DeploymentSucceeded,
  DeploymentTriggered,
  ServerHostKeyApproved,
  ServerRegistered,
  ServiceRegistered,
  serverStream,
  serviceDeploymentsStream,
  serviceStream,
} from '../src/events/deployments.events.js';
import { cookieAuth, signUp } from './support/identity.js';
import { procedureClient, ProcedureError, type SlipwayClient } from './support/procedure-client.js';
import { seed } from './support/seed.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Deployment ids are UUIDs (procedure inputs check them). */
const [D1, D2, D3] = [1, 2, 3].map((n) => `00000000-0000-4000-8000-00000000000${n}`);

const requestedBy = {
  principalId: 'seed',
  kind: 'user',
  role: 'operator',
  authMethod: 'session',
  tokenId: null,
};
const snapshot = (imageRef: string) => ({
  serviceName: 'api',
  environment: 'production',
  serverId: 'srv-1',
  imageRef,
  compose: 'services:\n  api:\n    image: ghcr.io/acme/api:1.0.0\n',
  env: [],
  healthCheckUrl: null,
});
const triggered = (deploymentId: string, sequence: number, imageRef: string) =>
  DeploymentTriggered({
    deploymentId,
    serviceId: 'svc-1',
    sequence,
    imageRef,
    trigger: 'session',
    requestedBy,
    snapshot: snapshot(imageRef),
    rollbackOf: null,
    approvalId: null,
    idempotencyKey: null,
    inputDigest: null,
  });

/**
 * Procedure tests seeded with events: the history is appended straight to the store, then the
 * read procedures are asked through the typed client, as any caller of the API would.
 */
describe('read procedures over a seeded history (typed client)', () => {
  let t: TestApp;
  let owner: SlipwayClient;

  beforeAll(async () => {
    t = await startTestApp();
    owner = procedureClient(t.url, cookieAuth((await signUp(t.url, 'owner@example.com')).cookie));
    await seed(t, [
      [
        serverStream('edge-1'),
        [
          ServerRegistered({
            serverId: 'srv-1',
            name: 'edge-1',
            host: '203.0.113.10',
            sshPort: 22,
            sshUser: 'deploy',
            credentialCiphertext: 'sealed',
            hostKeyFingerprint: 'SHA256:seeded',
            labels: {},
          }),
          ServerHostKeyApproved({ serverId: 'srv-1', fingerprint: 'SHA256:seeded' }),
        ],
      ],
      [
        serviceStream('production', 'api'),
        [
          ServiceRegistered({
            serviceId: 'svc-1',
            name: 'api',
            environment: 'production',
            serverId: 'srv-1',
            imageRepository: 'ghcr.io/acme/api',
            compose: snapshot('ghcr.io/acme/api:1.0.0').compose,
            env: [],
            approvalRule: 'none',
            healthCheckUrl: null,
            backupCommand: null,
          }),
        ],
      ],
      [
        serviceDeploymentsStream('svc-1'),
        [
          triggered(D1, 1, 'ghcr.io/acme/api:1.0.0'),
          DeploymentStarted({ deploymentId: D1, runnerId: 'seed' }),
          DeploymentSucceeded({
            deploymentId: D1,
            serviceId: 'svc-1',
            imageRef: 'ghcr.io/acme/api:1.0.0',
            imageDigest: null,
          }),
          triggered(D2, 2, 'ghcr.io/acme/api:1.1.0'),
          DeploymentStarted({ deploymentId: D2, runnerId: 'seed' }),
          DeploymentStepStarted({ deploymentId: D2, step: 'pull' }),
          DeploymentStepFinished({
            deploymentId: D2,
            step: 'pull',
            ok: false,
            detail: 'manifest unknown',
          }),
          DeploymentFailed({ deploymentId: D2, reason: 'image pull failed', step: 'pull' }),
          triggered(D3, 3, 'ghcr.io/acme/api:1.2.0'),
        ],
      ],
    ]);
  });
  afterAll(() => t.close());

  it('lists the history newest first, filtered by status', async () => {
    const all = await owner.recentDeployments({});
    expect(all.items.map((d) => [d.id, d.status])).toEqual([
      [D3, 'queued'],
      [D2, 'failed'],
      [D1, 'succeeded'],
    ]);
    const failed = await owner.recentDeployments({ status: 'failed' });
    expect(failed.items.map((d) => d.id)).toEqual([D2]);
  });

  it('details a failed deployment: its reason, failed step and step detail', async () => {
    const d = await owner.deploymentDetails({ deploymentId: D2 });
    expect(d).toMatchObject({ status: 'failed', failureReason: 'image pull failed' });
    expect(d.steps).toEqual([expect.objectContaining({ step: 'pull', ok: false })]);
  });

  it('shows the service on its server: the image of the last success, the latest deployment', async () => {
    const inventory = await owner.infrastructureInventory();
    expect(inventory.totals).toEqual({
      servers: 1,
      services: 1,
      serversAwaitingHostKeyApproval: 0,
    });
    const [server] = inventory.servers;
    expect(server).toMatchObject({ id: 'srv-1', name: 'edge-1' });
    expect(server.services).toEqual([
      expect.objectContaining({
        id: 'svc-1',
        currentImage: 'ghcr.io/acme/api:1.0.0',
        health: 'deploying',
        latestDeployment: expect.objectContaining({ id: D3, status: 'queued' }),
      }),
    ]);
  });

  it('answers an unknown deployment with NOT_FOUND in the documented shape', async () => {
    const refused = await owner
      .deploymentDetails({ deploymentId: '00000000-0000-4000-8000-0000000000ff' })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(ProcedureError);
    expect(refused).toMatchObject({ status: 404, error: { code: 'NOT_FOUND' } });
  });
});
