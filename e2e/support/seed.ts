import { ProjectionRunner } from '../../projections/projection-runner.js';
import type { PendingEvent } from '../../src/eventstore/define-event.js';
import { systemMetadata } from '../../src/eventstore/event-metadata.js';
import { EVENT_STORE, type EventStore } from '../../src/eventstore/event-store.port.js';
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
} from '../../src/events/deployments.events.js';
import type { TestApp } from './test-app.js';

/**
 * Given: history appended straight to the app's event store (as the system), stream by stream
 * in the order given, and every read model caught up with it. Much faster than reaching the
 * same state through commands, for tests of what procedures answer about a history.
 */
export async function seed(t: TestApp, history: [stream: string, events: PendingEvent[]][]) {
  const store = t.app.get<EventStore>(EVENT_STORE);
  for (const [stream, events] of history) {
    await store.append(
      stream,
      events.map((e) => ({ ...e, metadata: systemMetadata() })),
      'any',
    );
  }
  await t.app.get(ProjectionRunner).waitFor(await store.headPosition());
}

/** Ids are UUIDs, as procedure inputs require. */
export const SERVER_ID = '00000000-0000-4000-8000-0000000000a1';
export const SERVICE_ID = '00000000-0000-4000-8000-0000000000b1';
export const [D1, D2, D3] = [1, 2, 3].map((n) => `00000000-0000-4000-8000-00000000000${n}`);

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
  serverId: SERVER_ID,
  imageRef,
  compose: 'services:\n  api:\n    image: ghcr.io/acme/api:1.0.0\n',
  env: [],
  healthCheckUrl: null,
});
const triggered = (deploymentId: string, sequence: number, imageRef: string) =>
  DeploymentTriggered({
    deploymentId,
    serviceId: SERVICE_ID,
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
 * Server `edge-1` (host key approved) with service `api` (production, ghcr.io/acme/api) and three
 * deployments: D1 succeeded (1.0.0), D2 failed at `pull` (1.1.0), D3 queued (1.2.0).
 */
export function serviceWithHistory(): [string, PendingEvent[]][] {
  return [
    [
      serverStream('edge-1'),
      [
        ServerRegistered({
          serverId: SERVER_ID,
          name: 'edge-1',
          host: '203.0.113.10',
          sshPort: 22,
          sshUser: 'deploy',
          credentialCiphertext: 'sealed',
          hostKeyFingerprint: 'SHA256:seeded',
          labels: {},
        }),
        ServerHostKeyApproved({ serverId: SERVER_ID, fingerprint: 'SHA256:seeded' }),
      ],
    ],
    [
      serviceStream('production', 'api'),
      [
        ServiceRegistered({
          serviceId: SERVICE_ID,
          name: 'api',
          environment: 'production',
          serverId: SERVER_ID,
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
      serviceDeploymentsStream(SERVICE_ID),
      [
        triggered(D1, 1, 'ghcr.io/acme/api:1.0.0'),
        DeploymentStarted({ deploymentId: D1, runnerId: 'seed' }),
        DeploymentSucceeded({
          deploymentId: D1,
          serviceId: SERVICE_ID,
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
  ];
}
