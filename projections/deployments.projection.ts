import {
  DeploymentCancellationRequested,
  DeploymentCancelled,
  DeploymentFailed,
  DeploymentStarted,
  DeploymentStepFinished,
  DeploymentStepStarted,
  DeploymentSucceeded,
  DeploymentTriggered,
  type DeploymentSnapshot,
  type Requester,
} from '../src/events/deployments.events.js';
import type { EventDataOf, EventDefinition } from '../src/eventstore/define-event.js';
import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

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

const byDeployment = (e: RecordedEvent<{ deploymentId: string }>) => e.data.deploymentId;

/** A change to a deployment's document from an event about that deployment. */
function update<D extends { deploymentId: string }>(
  definition: EventDefinition<D>,
  change: (d: DeploymentDoc, e: RecordedEvent<D>) => Partial<DeploymentDoc>,
) {
  return on<D, DeploymentDoc>(definition, {
    collection: 'deployments',
    documentId: byDeployment,
    evolve: (c, e) => (c ? { ...c, ...change(c, e) } : null),
  });
}

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
  handlers: handlersOf(
    on<EventDataOf<typeof DeploymentTriggered>, DeploymentDoc>(DeploymentTriggered, {
      collection: 'deployments',
      documentId: byDeployment,
      evolve: (_c, { data, position, recordedAt }) => ({
        id: data.deploymentId,
        serviceId: data.serviceId,
        serviceName: data.snapshot.serviceName,
        environment: data.snapshot.environment,
        serverId: data.snapshot.serverId,
        imageRef: data.imageRef,
        sequence: data.sequence,
        order: Number(position),
        status: 'queued',
        trigger: data.trigger,
        requestedBy: data.requestedBy,
        snapshot: data.snapshot,
        rollbackOf: data.rollbackOf ?? null,
        approvalId: data.approvalId ?? null,
        createdAt: recordedAt,
        startedAt: null,
        finishedAt: null,
        steps: [],
        cancelRequested: false,
        failureReason: null,
        failedStep: null,
        imageDigest: null,
      }),
    }),
    update(DeploymentStarted, (_d, e) => ({ status: 'running', startedAt: e.recordedAt })),
    update(DeploymentStepStarted, (d, e) => ({
      steps: [
        ...d.steps,
        { step: e.data.step, startedAt: e.recordedAt, finishedAt: null, ok: null, detail: null },
      ],
    })),
    update(DeploymentStepFinished, (d, e) => ({
      steps: d.steps.map((s) =>
        s.step === e.data.step && s.finishedAt === null
          ? { ...s, finishedAt: e.recordedAt, ok: e.data.ok, detail: e.data.detail ?? null }
          : s,
      ),
    })),
    update(DeploymentCancellationRequested, () => ({ cancelRequested: true })),
    update(DeploymentCancelled, (_d, e) => ({
      status: 'cancelled',
      finishedAt: e.recordedAt,
      failureReason: e.data.reason,
    })),
    update(DeploymentSucceeded, (_d, e) => ({
      status: 'succeeded',
      finishedAt: e.recordedAt,
      imageDigest: e.data.imageDigest ?? null,
    })),
    update(DeploymentFailed, (_d, e) => ({
      status: 'failed',
      finishedAt: e.recordedAt,
      failureReason: e.data.reason,
      failedStep: e.data.step ?? null,
    })),
  ),
};
