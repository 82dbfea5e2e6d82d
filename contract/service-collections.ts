import { CHECKPOINT_COLLECTION } from '../projections/projection.js';
import { LEASES } from '../projections/projection-lease.js';
import { SESSION_ACTIVITY, TOKEN_USAGE } from '../src/access/usage-tracker.js';
import { AUDIT_CHAIN } from '../src/audit/audit-sealer.js';
import { DEPLOYMENT_LOGS } from '../src/deployments/deployment-log-store.js';
import { DRAIN_STATE } from '../src/drains/delivery/drain-state.js';
import { METRIC_SAMPLES } from '../src/runner/metrics/metric-samples.js';
import { RUNNER_HEARTBEATS_COLLECTION } from '../src/runner/runner-liveness.js';
import {
  DELIVERIES_COLLECTION,
  OUTBOX_COLLECTION,
  SENDER_LEASES,
} from '../src/notifications/delivery/delivery-record.js';
import type { CollectionSpec } from '../src/readstore/read-store.port.js';
import { STORE_MOVES } from '../src/readstore/move-collections.js';
import { REACTION_CHECKPOINTS_COLLECTION } from '../src/storage/reactions/reaction-checkpoints.js';
import { SUBJECT_KEY_ERASURES, SUBJECT_KEYS } from '../src/privacy/subject-key-vault.js';

/**
 * A collection of the read store that no projection owns: written by a service, with the spec
 * it declares at start (the same constant its `ensureCollection` receives) and the exported
 * type of its documents, kept next to the code that writes it.
 */
export interface ServiceCollection {
  spec: CollectionSpec;
  file: string;
  type: string;
  writtenBy: string[];
  description: string;
}

export const SERVICE_COLLECTIONS: ServiceCollection[] = [
  {
    spec: { name: CHECKPOINT_COLLECTION },
    file: 'projections/projection.ts',
    type: 'ProjectionCheckpoint',
    writtenBy: ['projections/projection-runner.ts'],
    description:
      "Each projection's version and last applied position, committed with its documents; " +
      'rebuilt with them.',
  },
  {
    spec: LEASES,
    file: 'projections/projection-lease.ts',
    type: 'LeaseDoc',
    writtenBy: ['projections/projection-lease.ts'],
    description:
      'Only with SLIPWAY_REPLICAS > 1: which replica applies each projection (id: its name), ' +
      'until when, under which epoch. Not rebuildable; expires by itself.',
  },
  {
    spec: SENDER_LEASES,
    file: 'projections/projection-lease.ts',
    type: 'LeaseDoc',
    writtenBy: ['projections/projection-lease.ts', 'src/notifications/delivery/sender-loop.ts'],
    description:
      'Only with SLIPWAY_REPLICAS > 1: which process sends notifications (id: ' +
      'notification-sender) and which ships the drains (id: drain-shipper), until when, under ' +
      'which epoch; beside the deliveries, so replicas building another set of read models ' +
      'share them. Expires by itself.',
  },
  {
    spec: AUDIT_CHAIN,
    file: 'src/audit/audit-sealer.ts',
    type: 'ChainLinkDoc',
    writtenBy: ['src/audit/audit-sealer.ts'],
    description:
      'The hash-chain link of every sealed place of the global order, written by the sealer. ' +
      'Not a projection.',
  },
  {
    spec: RUNNER_HEARTBEATS_COLLECTION,
    file: 'src/runner/runner-liveness.ts',
    type: 'RunnerHeartbeatDoc',
    writtenBy: ['src/runner/runner-liveness.ts'],
    description:
      'Each runner process (id: its runner id): host, pid, until when it is alive, and the ' +
      'deployments it runs; how a runner tells a dead runner’s deployments from a live one’s. ' +
      'Not rebuildable; renewed by the runners.',
  },
  {
    spec: DEPLOYMENT_LOGS,
    file: 'src/deployments/deployment-log-store.ts',
    type: 'LogLine',
    writtenBy: ['src/deployments/deployment-log-store.ts'],
    description:
      'Deployment output, one document per line, appended by the runner. Not a projection: ' +
      'the only copy.',
  },
  {
    spec: DELIVERIES_COLLECTION,
    file: 'src/notifications/delivery/delivery-record.ts',
    type: 'DeliveryDoc',
    writtenBy: [
      'src/notifications/delivery/notification-outbox.ts',
      'src/notifications/delivery/delivery-sender.ts',
    ],
    description:
      'One notification per event and channel: created by the consumer, its status and ' +
      'attempts updated by the sender. Not a projection: the only copy.',
  },
  {
    spec: OUTBOX_COLLECTION,
    file: 'src/notifications/delivery/notification-outbox.ts',
    type: 'OutboxCheckpoint',
    writtenBy: ['src/notifications/delivery/notification-outbox.ts'],
    description: "The notification consumer's position in the event log (id: deliveries).",
  },
  {
    spec: DRAIN_STATE,
    file: 'src/drains/delivery/drain-state.ts',
    type: 'DrainStateDoc',
    writtenBy: ['src/drains/delivery/drain-shipper.ts'],
    description:
      'What each drain (id: its drain id) has delivered: its position in the event log, the ' +
      'deployments whose output it follows, counts, the last error and its back-off. Not a ' +
      'projection: rebuilding the read models must not ship everything again.',
  },
  {
    spec: METRIC_SAMPLES,
    file: 'src/runner/metrics/metric-samples.ts',
    type: 'MetricSampleDoc',
    writtenBy: ['src/runner/metrics/metric-samples.ts'],
    description:
      "Metrics history: each server's and each service container's readings (CPU, memory, " +
      'disk, Docker disk, restarts, health) as read (`raw`), and hourly means and maxima ' +
      '(`hour`), each pruned by age. Not derived from events.',
  },
  {
    spec: STORE_MOVES,
    file: 'src/readstore/move-collections.ts',
    type: 'StoreMoveDoc',
    writtenBy: ['src/readstore/move-collections.ts'],
    description:
      'Moves of collections into this store, one document each (id: the move): when it was ' +
      'done and how many documents of each collection it copied. ' +
      'primary-data-from-read-models: the primary collections an earlier release kept in the ' +
      'read store.',
  },
  {
    spec: REACTION_CHECKPOINTS_COLLECTION,
    file: 'src/storage/reactions/reaction-checkpoints.ts',
    type: 'ReactionCheckpointDoc',
    writtenBy: ['src/storage/reactions/reaction-checkpoints.ts'],
    description:
      "Each process's reaction feed (id: api or worker): the position in the event log up to " +
      'which its EventBus reactions finished. Not a projection.',
  },
  {
    spec: SUBJECT_KEYS,
    file: 'src/privacy/subject-key-vault.ts',
    type: 'SubjectKeyDoc',
    writtenBy: ['src/privacy/subject-key-vault.ts', 'src/privacy/legacy-subject-keys.ts'],
    description:
      'The key each subject (id: user-<id>, invite-<id>, anonymous-<month>) has its personal ' +
      'values sealed under, itself sealed with the service secret key; null once erased. ' +
      'Not a projection: the only copy, and deleting a key is what erases.',
  },
  {
    spec: SUBJECT_KEY_ERASURES,
    file: 'src/privacy/subject-key-vault.ts',
    type: 'ErasureCountDoc',
    writtenBy: ['src/privacy/subject-key-vault.ts'],
    description:
      'How many keys were erased (id: count), moved in the same transaction as each erasure: ' +
      'how every process sharing the store learns its kept keys may be stale.',
  },
  {
    spec: TOKEN_USAGE,
    file: 'src/access/usage-tracker.ts',
    type: 'UsageDoc',
    writtenBy: ['src/access/usage-tracker.ts'],
    description:
      'When each API token (id: token id) was last used, flushed from memory every 30 s. ' +
      'Not a projection.',
  },
  {
    spec: SESSION_ACTIVITY,
    file: 'src/access/usage-tracker.ts',
    type: 'UsageDoc',
    writtenBy: ['src/access/usage-tracker.ts'],
    description:
      'When each session (id: SHA-256 of the cookie) was last used, flushed from memory every ' +
      '30 s. Not a projection.',
  },
];
