import { createHash } from 'node:crypto';
import { OrderedMap } from 'immutable';
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
} from '../events/deployments.events.js';
import { ServiceDeploymentsClosed } from '../events/lifecycle.events.js';

export type DeploymentStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface QueuedDeployment {
  status: 'queued' | 'running';
  sequence: number;
  cancelRequested: boolean;
}

/**
 * Only what decisions need, so it stays small however many deployments the service has had:
 * the open (queued or running) deployments, oldest first, and the next sequence number. `open`
 * is a persistent map: each event changes it in O(log n) and earlier states stay as they were
 * (they are shared with later commands), where copying a plain Map made every trigger cost as
 * much as the whole queue. Idempotency keys are
 * claimed on their own streams; `legacyIdempotency` holds only the keys recorded before that
 * (version 1 triggers), a set that no longer grows.
 */
export interface ServiceDeploymentsState {
  open: OrderedMap<string, QueuedDeployment>;
  legacyIdempotency: ReadonlyMap<string, { deploymentId: string; inputDigest: string }>;
  nextSequence: number;
  /** The service is archived: no trigger and no start any more. */
  closed: boolean;
}

type TriggerData = Omit<Parameters<typeof DeploymentTriggered>[0], 'sequence'>;

/** What the read model says about a deployment the queue no longer holds open. */
export interface RecordedDeployment {
  sequence: number;
  status: DeploymentStatus;
}

type About = { deploymentId: string; recorded?: RecordedDeployment };

export type ServiceDeploymentsCommand =
  | { kind: 'trigger'; event: TriggerData }
  | ({ kind: 'cancel'; reason: string } & About)
  | ({ kind: 'start'; runnerId: string } & About)
  | ({ kind: 'stepStarted'; step: string } & About)
  | ({ kind: 'stepFinished'; step: string; ok: boolean; detail: string | null } & About)
  | ({
      kind: 'succeed';
      serviceId: string;
      imageRef: string;
      imageDigest: string | null;
    } & About)
  | ({ kind: 'fail'; reason: string; step: string | null } & About)
  | ({ kind: 'confirmCancelled'; reason: string } & About)
  | { kind: 'close'; serviceId: string };

type Found = QueuedDeployment | { status: DeploymentStatus | 'finished'; cancelRequested: true };

/**
 * An open deployment, or, for one of this queue's earlier sequence numbers, a finished one
 * (its final status as recorded when known). Anything else does not exist.
 */
function find(state: ServiceDeploymentsState, about: About): Found {
  const open = state.open.get(about.deploymentId);
  if (open) return open;
  const recorded = about.recorded;
  if (recorded && recorded.sequence < state.nextSequence) {
    const finished = recorded.status === 'queued' || recorded.status === 'running';
    return { status: finished ? 'finished' : recorded.status, cancelRequested: true };
  }
  throw notFound('No such deployment');
}

function requireRunning(state: ServiceDeploymentsState, about: About): void {
  const d = find(state, about);
  if (d.status !== 'running') throw conflict(`The deployment is ${d.status}, not running`);
}

function closedQueue(serviceId: string | null) {
  return conflict(
    'The service is archived: it takes no deployment',
    serviceId ? { serviceId } : {},
  );
}

/** A trigger's event id follows from its deployment id: the same trigger cannot land twice. */
export function triggerEventId(deploymentId: string): string {
  const hex = createHash('sha256').update(`DeploymentTriggered:${deploymentId}`).digest('hex');
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    `4${hex.slice(13, 16)}`,
    `8${hex.slice(17, 20)}`,
    hex.slice(20, 32),
  ].join('-');
}

function withOpen(
  state: ServiceDeploymentsState,
  open: OrderedMap<string, QueuedDeployment>,
): ServiceDeploymentsState {
  return { ...state, open };
}

/**
 * The oldest queued deployment's sequence, or a conflict when one is running. Only the oldest
 * queued may start, so a running one always comes before every queued one: the walk stops at
 * the first queued entry however long the queue is.
 */
function firstQueued(open: OrderedMap<string, QueuedDeployment>): number | null {
  for (const x of open.values()) {
    if (x.status === 'running') throw conflict('Another deployment of this service is running');
    return x.sequence;
  }
  return null;
}

/**
 * One service's deployments as a FIFO queue: `queued → running → succeeded | failed | cancelled`.
 * At most one runs; only the oldest queued may start. Archiving closes the queue, only when
 * nothing is open, and a closed queue takes nothing more. Idempotency keys are claimed before the
 * trigger (see the idempotency claim decider); version 1 triggers carried them here.
 */
export const serviceDeploymentsDecider: Decider<
  ServiceDeploymentsState,
  ServiceDeploymentsCommand
> = {
  initialState: () => ({
    open: OrderedMap(),
    legacyIdempotency: new Map(),
    nextSequence: 1,
    closed: false,
  }),

  evolve(state: ServiceDeploymentsState, event: EventLike): ServiceDeploymentsState {
    if (event.type === ServiceDeploymentsClosed.type) return { ...state, closed: true };
    if (event.type === DeploymentTriggered.type) {
      const d = DeploymentTriggered.dataOf(event);
      const next = withOpen(
        state,
        state.open.set(d.deploymentId, {
          status: 'queued',
          sequence: d.sequence,
          cancelRequested: false,
        }),
      );
      next.nextSequence = d.sequence + 1;
      if (d.idempotencyKey && (event.schemaVersion ?? 1) < 2) {
        const legacy = new Map(state.legacyIdempotency);
        legacy.set(d.idempotencyKey, {
          deploymentId: d.deploymentId,
          inputDigest: String(d.inputDigest),
        });
        next.legacyIdempotency = legacy;
      }
      return next;
    }
    const about = ABOUT_A_DEPLOYMENT.find((definition) => definition.type === event.type);
    if (!about) return state;
    const id = about.dataOf(event).deploymentId;
    const current = state.open.get(id);
    if (!current) return state;
    if (event.type === DeploymentCancellationRequested.type) {
      return withOpen(state, state.open.set(id, { ...current, cancelRequested: true }));
    }
    if (event.type === DeploymentStarted.type) {
      return withOpen(state, state.open.set(id, { ...current, status: 'running' }));
    }
    if (FINISHING.has(event.type)) return withOpen(state, state.open.delete(id));
    return state;
  },

  decide(command: ServiceDeploymentsCommand, state: ServiceDeploymentsState) {
    switch (command.kind) {
      case 'close':
        if (state.closed) return [];
        if (state.open.size > 0)
          throw conflict('A deployment of this service is queued or running: cancel it first', {
            serviceId: command.serviceId,
          });
        return [ServiceDeploymentsClosed({ serviceId: command.serviceId })];
      case 'trigger': {
        if (state.closed) throw closedQueue(command.event.serviceId);
        // Queued already (a claimed idempotency key queued by two requests at once): nothing
        // new. The decision says so itself rather than rely on the store refusing the trigger's
        // fixed event id, which EventStoreDB checks only at the same expected revision.
        if (state.open.has(command.event.deploymentId)) return [];
        const event = DeploymentTriggered({ ...command.event, sequence: state.nextSequence });
        return [{ ...event, id: triggerEventId(command.event.deploymentId) }];
      }
      case 'cancel': {
        const d = find(state, command);
        if (d.status === 'queued')
          return [
            DeploymentCancelled({ deploymentId: command.deploymentId, reason: command.reason }),
          ];
        if (d.status !== 'running')
          throw conflict(
            `The deployment already ${d.status === 'cancelled' ? 'was cancelled' : d.status}`,
          );
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
        // Closing needs an empty queue, so only a store written otherwise gets here.
        if (state.closed) throw closedQueue(null);
        const d = find(state, command);
        if (!('sequence' in d) || d.status !== 'queued')
          throw conflict(`The deployment is ${d.status}, not queued`);
        if (d.sequence !== firstQueued(state.open))
          throw conflict('An older deployment of this service is queued first');
        return [
          DeploymentStarted({ deploymentId: command.deploymentId, runnerId: command.runnerId }),
        ];
      }
      case 'stepStarted':
        requireRunning(state, command);
        return [DeploymentStepStarted({ deploymentId: command.deploymentId, step: command.step })];
      case 'stepFinished':
        requireRunning(state, command);
        return [
          DeploymentStepFinished({
            deploymentId: command.deploymentId,
            step: command.step,
            ok: command.ok,
            detail: command.detail,
          }),
        ];
      case 'succeed':
        requireRunning(state, command);
        return [
          DeploymentSucceeded({
            deploymentId: command.deploymentId,
            serviceId: command.serviceId,
            imageRef: command.imageRef,
            imageDigest: command.imageDigest,
          }),
        ];
      case 'fail':
        requireRunning(state, command);
        return [
          DeploymentFailed({
            deploymentId: command.deploymentId,
            reason: command.reason,
            step: command.step,
          }),
        ];
      case 'confirmCancelled':
        requireRunning(state, command);
        return [
          DeploymentCancelled({ deploymentId: command.deploymentId, reason: command.reason }),
        ];
    }
  },
};

/** Events about one deployment of the queue, after its trigger. */
const ABOUT_A_DEPLOYMENT = [
  DeploymentCancellationRequested,
  DeploymentStarted,
  DeploymentStepStarted,
  DeploymentStepFinished,
  DeploymentSucceeded,
  DeploymentFailed,
  DeploymentCancelled,
] as const;

const FINISHING = new Set([
  DeploymentSucceeded.type,
  DeploymentFailed.type,
  DeploymentCancelled.type,
]);
