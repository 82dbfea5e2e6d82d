import { SESSION_ACTIVITY, TOKEN_USAGE } from '../access/usage-tracker.js';
import { AUDIT_CHAIN } from '../audit/audit-sealer.js';
import { DEPLOYMENT_LOGS } from '../deployments/deployment-log-store.js';
import { DRAIN_STATE } from '../drains/delivery/drain-state.js';
import {
  DELIVERIES_COLLECTION,
  SENDER_LEASES,
  OUTBOX_COLLECTION,
} from '../notifications/delivery/delivery-record.js';
import type { CollectionSpec } from '../readstore/read-store.port.js';
import { STORE_MOVES } from '../readstore/move-collections.js';
import { SUBJECT_KEY_ERASURES, SUBJECT_KEYS } from '../privacy/subject-key-vault.js';
import { METRIC_SAMPLES } from '../runner/metrics/metric-samples.js';
import { RUNNER_HEARTBEATS_COLLECTION } from '../runner/runner-liveness.js';
import { REACTION_CHECKPOINTS_COLLECTION } from '../storage/reactions/reaction-checkpoints.js';

/**
 * The collections of the primary store (PRIMARY_STORE): written by services, derived from no
 * event, the only copy of what they hold. Releases before the primary store kept them in the
 * read store; they are moved from there once (see move-primary-data.ts).
 */
export const PRIMARY_COLLECTIONS: CollectionSpec[] = [
  DEPLOYMENT_LOGS,
  TOKEN_USAGE,
  SESSION_ACTIVITY,
  RUNNER_HEARTBEATS_COLLECTION,
  DELIVERIES_COLLECTION,
  OUTBOX_COLLECTION,
  AUDIT_CHAIN,
];

/**
 * Everything the primary store holds: the moved collections, the reaction feeds' positions
 * (new with the primary store, so never moved), the subject keys (taken over from
 * `subject-keys.db`, see legacy-subject-keys.ts), the notification sender's lease (several
 * replicas only), what each drain has delivered, the metrics history, and its own bookkeeping of moves.
 */
export const PRIMARY_STORE_COLLECTIONS: CollectionSpec[] = [
  ...PRIMARY_COLLECTIONS,
  REACTION_CHECKPOINTS_COLLECTION,
  SUBJECT_KEYS,
  SUBJECT_KEY_ERASURES,
  SENDER_LEASES,
  DRAIN_STATE,
  METRIC_SAMPLES,
  STORE_MOVES,
];
