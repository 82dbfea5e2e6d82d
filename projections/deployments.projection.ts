import type { DeploymentSnapshot, Requester } from '../src/events/deployments.events.js';
import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import type { Projection } from './projection.js';

export interface DeploymentStep {
  step: string;
  startedAt: string;
  finishedAt: string | null;
  ok: boolean | null;
  detail: string | null;
}

/**
 * `deployments`: `{id, serviceId, serviceName, environment, serverId, imageRef, sequence (FIFO
 * order within the service), order (global position of the trigger), status, trigger,
 * requestedBy {principalId, kind, role, authMethod, tokenId}, snapshot (secret env values
 * sealed), rollbackOf, approvalId, createdAt, startedAt, finishedAt, steps[], cancelRequested,
 * failureReason, failedStep, imageDigest}`.
 */
export interface DeploymentDoc extends Doc {
  serviceId: string;
  serviceName: string;
  environment: string;
  serverId: string;
  imageRef: string;
  sequence: number;
  order: number;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  trigger: string;
  requestedBy: Requester;
  snapshot: DeploymentSnapshot;
  rollbackOf: string | null;
  approvalId: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  steps: DeploymentStep[];
  cancelRequested: boolean;
  failureReason: string | null;
  failedStep: string | null;
  imageDigest: string | null;
}

const byDeployment = (e: RecordedEvent) => String(e.data.deploymentId);
const update = (change: (d: DeploymentDoc, e: RecordedEvent) => Partial<DeploymentDoc>) => [
  {
    collection: 'deployments',
    documentId: byDeployment,
    evolve: (c: Doc | null, e: RecordedEvent) =>
      c ? { ...c, ...change(c as DeploymentDoc, e) } : null,
  },
];

export const deploymentsProjection: Projection = {
  name: 'deployments',
  version: 1,
  collections: [
    {
      name: 'deployments',
      indexes: [
        { fields: ['order'] },
        { fields: ['serviceId', 'order'] },
        { fields: ['status', 'order'] },
      ],
    },
  ],
  handlers: {
    DeploymentTriggered: [
      {
        collection: 'deployments',
        documentId: byDeployment,
        evolve: (_c, e): DeploymentDoc => {
          const snapshot = e.data.snapshot as DeploymentSnapshot;
          return {
            id: String(e.data.deploymentId),
            serviceId: String(e.data.serviceId),
            serviceName: snapshot.serviceName,
            environment: snapshot.environment,
            serverId: snapshot.serverId,
            imageRef: String(e.data.imageRef),
            sequence: Number(e.data.sequence),
            order: Number(e.position),
            status: 'queued',
            trigger: String(e.data.trigger),
            requestedBy: e.data.requestedBy as Requester,
            snapshot,
            rollbackOf: (e.data.rollbackOf as string | null) ?? null,
            approvalId: (e.data.approvalId as string | null) ?? null,
            createdAt: e.recordedAt,
            startedAt: null,
            finishedAt: null,
            steps: [],
            cancelRequested: false,
            failureReason: null,
            failedStep: null,
            imageDigest: null,
          };
        },
      },
    ],
    DeploymentStarted: update((_d, e) => ({ status: 'running', startedAt: e.recordedAt })),
    DeploymentStepStarted: update((d, e) => ({
      steps: [
        ...d.steps,
        {
          step: String(e.data.step),
          startedAt: e.recordedAt,
          finishedAt: null,
          ok: null,
          detail: null,
        },
      ],
    })),
    DeploymentStepFinished: update((d, e) => ({
      steps: d.steps.map((s) =>
        s.step === e.data.step && s.finishedAt === null
          ? {
              ...s,
              finishedAt: e.recordedAt,
              ok: Boolean(e.data.ok),
              detail: (e.data.detail as string | null) ?? null,
            }
          : s,
      ),
    })),
    DeploymentCancellationRequested: update(() => ({ cancelRequested: true })),
    DeploymentCancelled: update((_d, e) => ({
      status: 'cancelled',
      finishedAt: e.recordedAt,
      failureReason: String(e.data.reason),
    })),
    DeploymentSucceeded: update((_d, e) => ({
      status: 'succeeded',
      finishedAt: e.recordedAt,
      imageDigest: (e.data.imageDigest as string | null) ?? null,
    })),
    DeploymentFailed: update((_d, e) => ({
      status: 'failed',
      finishedAt: e.recordedAt,
      failureReason: String(e.data.reason),
      failedStep: (e.data.step as string | null) ?? null,
    })),
  },
};
