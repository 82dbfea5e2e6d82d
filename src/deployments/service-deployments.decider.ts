import { conflict, notFound } from '../common/app-error.js';
import type { Decider, EventLike } from '../storage/decider.js';
import {
  DeploymentCancellationRequested,
  DeploymentCancelled,
  DeploymentFailed,
  DeploymentStarted,
  DeploymentStepFinished,
  DeploymentStepStarted,
  DeploymentSucceeded,
  DeploymentTriggered,
} from './deployments.events.js';

export type DeploymentStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface QueuedDeployment {
  status: DeploymentStatus;
  sequence: number;
  cancelRequested: boolean;
}

export interface ServiceDeploymentsState {
  deployments: Map<string, QueuedDeployment>;
  idempotency: Map<string, { deploymentId: string; inputDigest: string }>;
  nextSequence: number;
}

type TriggerData = Omit<Parameters<typeof DeploymentTriggered>[0], 'sequence'>;

export type ServiceDeploymentsCommand =
  | { kind: 'trigger'; event: TriggerData }
  | { kind: 'cancel'; deploymentId: string; reason: string }
  | { kind: 'start'; deploymentId: string; runnerId: string }
  | { kind: 'stepStarted'; deploymentId: string; step: string }
  | { kind: 'stepFinished'; deploymentId: string; step: string; ok: boolean; detail: string | null }
  | {
      kind: 'succeed';
      deploymentId: string;
      serviceId: string;
      imageRef: string;
      imageDigest: string | null;
    }
  | { kind: 'fail'; deploymentId: string; reason: string; step: string | null }
  | { kind: 'confirmCancelled'; deploymentId: string; reason: string };

const FINISHED: DeploymentStatus[] = ['succeeded', 'failed', 'cancelled'];

function find(state: ServiceDeploymentsState, id: string): QueuedDeployment {
  const d = state.deployments.get(id);
  if (!d) throw notFound('No such deployment');
  return d;
}

function requireRunning(state: ServiceDeploymentsState, id: string): void {
  const d = find(state, id);
  if (d.status !== 'running') throw conflict(`The deployment is ${d.status}, not running`);
}

const STATUS_BY_EVENT: Record<string, DeploymentStatus> = {
  [DeploymentStarted.type]: 'running',
  [DeploymentSucceeded.type]: 'succeeded',
  [DeploymentFailed.type]: 'failed',
  [DeploymentCancelled.type]: 'cancelled',
};

/**
 * One service's deployments as a FIFO queue: `queued → running → succeeded | failed | cancelled`.
 * At most one runs; only the oldest queued may start; an idempotency key returns the first
 * deployment for the same input and refuses different input.
 */
export const serviceDeploymentsDecider: Decider<
  ServiceDeploymentsState,
  ServiceDeploymentsCommand
> = {
  initialState: () => ({ deployments: new Map(), idempotency: new Map(), nextSequence: 1 }),

  evolve(state: ServiceDeploymentsState, event: EventLike): ServiceDeploymentsState {
    const d = event.data as Record<string, unknown>;
    const id = String(d.deploymentId);
    const deployments = new Map(state.deployments);
    if (event.type === DeploymentTriggered.type) {
      const idempotency = new Map(state.idempotency);
      if (d.idempotencyKey)
        idempotency.set(String(d.idempotencyKey), {
          deploymentId: id,
          inputDigest: String(d.inputDigest),
        });
      deployments.set(id, {
        status: 'queued',
        sequence: Number(d.sequence),
        cancelRequested: false,
      });
      return { deployments, idempotency, nextSequence: Number(d.sequence) + 1 };
    }
    const current = deployments.get(id);
    if (!current) return state;
    if (event.type === DeploymentCancellationRequested.type) {
      deployments.set(id, { ...current, cancelRequested: true });
    } else if (STATUS_BY_EVENT[event.type]) {
      deployments.set(id, { ...current, status: STATUS_BY_EVENT[event.type] });
    }
    return { ...state, deployments };
  },

  decide(command: ServiceDeploymentsCommand, state: ServiceDeploymentsState) {
    switch (command.kind) {
      case 'trigger': {
        const { idempotencyKey, inputDigest } = command.event;
        const previous = idempotencyKey ? state.idempotency.get(idempotencyKey) : undefined;
        if (previous) {
          if (previous.inputDigest !== inputDigest) {
            throw conflict('This Idempotency-Key was used for a different request', {
              deploymentId: previous.deploymentId,
            });
          }
          return [];
        }
        return [DeploymentTriggered({ ...command.event, sequence: state.nextSequence })];
      }
      case 'cancel': {
        const d = find(state, command.deploymentId);
        if (FINISHED.includes(d.status))
          throw conflict(
            `The deployment already ${d.status === 'cancelled' ? 'was cancelled' : d.status}`,
          );
        if (d.status === 'queued')
          return [
            DeploymentCancelled({ deploymentId: command.deploymentId, reason: command.reason }),
          ];
        return d.cancelRequested
          ? []
          : [
              DeploymentCancellationRequested({
                deploymentId: command.deploymentId,
                reason: command.reason,
              }),
            ];
      }
      case 'start': {
        const d = find(state, command.deploymentId);
        if (d.status !== 'queued') throw conflict(`The deployment is ${d.status}, not queued`);
        const active = [...state.deployments.values()].some((x) => x.status === 'running');
        if (active) throw conflict('Another deployment of this service is running');
        const first = Math.min(
          ...[...state.deployments.values()]
            .filter((x) => x.status === 'queued')
            .map((x) => x.sequence),
        );
        if (d.sequence !== first)
          throw conflict('An older deployment of this service is queued first');
        return [
          DeploymentStarted({ deploymentId: command.deploymentId, runnerId: command.runnerId }),
        ];
      }
      case 'stepStarted':
        requireRunning(state, command.deploymentId);
        return [DeploymentStepStarted({ deploymentId: command.deploymentId, step: command.step })];
      case 'stepFinished':
        requireRunning(state, command.deploymentId);
        return [
          DeploymentStepFinished({
            deploymentId: command.deploymentId,
            step: command.step,
            ok: command.ok,
            detail: command.detail,
          }),
        ];
      case 'succeed':
        requireRunning(state, command.deploymentId);
        return [
          DeploymentSucceeded({
            deploymentId: command.deploymentId,
            serviceId: command.serviceId,
            imageRef: command.imageRef,
            imageDigest: command.imageDigest,
          }),
        ];
      case 'fail':
        requireRunning(state, command.deploymentId);
        return [
          DeploymentFailed({
            deploymentId: command.deploymentId,
            reason: command.reason,
            step: command.step,
          }),
        ];
      case 'confirmCancelled':
        requireRunning(state, command.deploymentId);
        return [
          DeploymentCancelled({ deploymentId: command.deploymentId, reason: command.reason }),
        ];
    }
  },
};
