import { createGenerator, type Config } from 'ts-json-schema-generator';
import { applicationProjections } from '../projections/index.js';
import { CHECKPOINT_COLLECTION } from '../projections/projection.js';
import { LEASES } from '../projections/projection-lease.js';
import { SESSION_ACTIVITY, TOKEN_USAGE } from '../src/access/usage-tracker.js';
import { AUDIT_CHAIN } from '../src/audit/audit-sealer.js';
import { DEPLOYMENT_LOGS } from '../src/deployments/deployment-log-store.js';
import { RUNNER_HEARTBEATS_COLLECTION } from '../src/runner/runner-liveness.js';
import {
  DELIVERIES_COLLECTION,
  OUTBOX_COLLECTION,
} from '../src/notifications/delivery/delivery-record.js';
import type { CollectionSpec, IndexSpec } from '../src/readstore/read-store.port.js';
import { STORE_MOVES } from '../src/readstore/move-collections.js';
import { PRIMARY_STORE_COLLECTIONS } from '../src/app/primary-collections.js';
import { REACTION_CHECKPOINTS_COLLECTION } from '../src/storage/reactions/reaction-checkpoints.js';
import { SUBJECT_KEY_ERASURES, SUBJECT_KEYS } from '../src/privacy/subject-key-vault.js';
import { SENDER_LEASES } from '../src/notifications/delivery/delivery-record.js';

/** Which exported type describes the documents of each projection's collection. */
export const READ_MODEL_TYPES: Record<string, { file: string; type: string }> = {
  principals: { file: 'projections/principals.projection.ts', type: 'PrincipalDoc' },
  api_tokens: { file: 'projections/api-tokens.projection.ts', type: 'ApiTokenDoc' },
  sessions: { file: 'projections/sessions.projection.ts', type: 'SessionDoc' },
  user_credentials: {
    file: 'projections/user-credentials.projection.ts',
    type: 'UserCredentialDoc',
  },
  mfa: { file: 'projections/mfa.projection.ts', type: 'MfaDoc' },
  security_policy: { file: 'projections/security-policy.projection.ts', type: 'SecurityPolicyDoc' },
  password_resets: { file: 'projections/password-resets.projection.ts', type: 'PasswordResetDoc' },
  servers: { file: 'projections/servers.projection.ts', type: 'ServerDoc' },
  services: { file: 'projections/services.projection.ts', type: 'ServiceDoc' },
  server_edges: { file: 'projections/server-edges.projection.ts', type: 'ServerEdgeDoc' },
  edge_certificates: {
    file: 'projections/edge-certificates.projection.ts',
    type: 'EdgeCertificateDoc',
  },
  deployments: { file: 'projections/deployments.projection.ts', type: 'DeploymentDoc' },
  approvals: { file: 'projections/approvals.projection.ts', type: 'ApprovalDoc' },
  backups: { file: 'projections/backups.projection.ts', type: 'BackupDoc' },
  audit_trail: { file: 'projections/audit-trail.projection.ts', type: 'AuditEntryDoc' },
  invites: { file: 'projections/invites.projection.ts', type: 'InviteDoc' },
  notification_channels: {
    file: 'projections/notification-channels.projection.ts',
    type: 'NotificationChannelDoc',
  },
  deploy_hooks: { file: 'projections/deploy-hooks.projection.ts', type: 'DeployHookDoc' },
};

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
    writtenBy: ['projections/projection-lease.ts', 'src/notifications/delivery/delivery-sender.ts'],
    description:
      'Only with SLIPWAY_REPLICAS > 1: which process sends notifications (id: ' +
      'notification-sender), until when, under which epoch; beside the deliveries, so replicas ' +
      'building another set of read models share it. Expires by itself.',
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

/** Every file a document type is read from (the generator's program). */
function typeFiles(root: string): string {
  const files = new Set([
    ...Object.values(READ_MODEL_TYPES).map((t) => t.file),
    ...SERVICE_COLLECTIONS.map((c) => c.file),
  ]);
  return `${root}/{${[...files].sort().join(',')}}`;
}

type JsonSchema = Record<string, unknown>;

/**
 * `read-models`: the projections' store (SQLite `read-models.sqlite`; MongoDB the database of
 * SLIPWAY_MONGODB_URL), deleted or dropped to rebuild from the events. `primary`: data derived
 * from no event (SQLite `primary.sqlite`; MongoDB that database's name + `_primary`), the only
 * copy, never rebuilt.
 */
export type StoreName = 'read-models' | 'primary';

export interface ReadModelCollection {
  /** The store that holds the collection. */
  store: StoreName;
  /** The projection that owns the collection (rebuildable from the events), or null. */
  projection: string | null;
  projectionVersion: number | null;
  /** The modules that write its documents (repository paths). */
  writtenBy: string[];
  description: string;
  indexes: IndexSpec[];
  /** JSON Schema (draft-07) of one document, self-contained. */
  document: JsonSchema;
}

export interface ReadModelContract {
  product: 'Slipway';
  description: string;
  collections: Record<string, ReadModelCollection>;
}

const POSITION_FIELD = {
  type: 'integer',
  minimum: 1,
  description:
    'Global position of the last event that changed this document (added by the runner; ' +
    're-applying an event at or below it changes nothing). Sparse: compare, never count.',
};

interface Owner {
  projection: string | null;
  version: number | null;
  indexes: IndexSpec[];
  file: string;
  type: string;
  writtenBy: string[];
  description: string;
}

/** Every collection with its writer, from the projections and SERVICE_COLLECTIONS. */
function owners(): Map<string, Owner> {
  const out = new Map<string, Owner>();
  const missing: string[] = [];
  for (const p of applicationProjections) {
    for (const c of p.collections) {
      const t = READ_MODEL_TYPES[c.name];
      if (!t) {
        missing.push(c.name);
        continue;
      }
      out.set(c.name, {
        projection: p.name,
        version: p.version,
        indexes: c.indexes ?? [],
        ...t,
        writtenBy: [t.file],
        description: `Projection ${p.name} (version ${p.version}): rebuildable from the events.`,
      });
    }
  }
  const extra = Object.keys(READ_MODEL_TYPES).filter((n) => !out.has(n));
  const twice = SERVICE_COLLECTIONS.filter((c) => out.has(c.spec.name)).map((c) => c.spec.name);
  if (missing.length || extra.length || twice.length) {
    throw new Error(
      `contract/read-model-schema.ts READ_MODEL_TYPES is out of date: ` +
        `missing ${missing.join(', ') || 'none'}; unknown ${extra.join(', ') || 'none'}; ` +
        `both a projection's and a service's ${twice.join(', ') || 'none'}`,
    );
  }
  for (const c of SERVICE_COLLECTIONS) {
    out.set(c.spec.name, {
      projection: null,
      version: null,
      indexes: c.spec.indexes ?? [],
      file: c.file,
      type: c.type,
      writtenBy: c.writtenBy,
      description: c.description,
    });
  }
  return out;
}

/**
 * The documents of every collection as the types of the code that writes them declare them,
 * plus `_position` on projected documents. `root` is the repository root (where tsconfig.json is).
 */
export function buildReadModelContract(root: string): ReadModelContract {
  const all = owners();
  const primaryNames = new Set(PRIMARY_STORE_COLLECTIONS.map((c) => c.name));
  const unpublished = [...primaryNames].filter((name) => !all.has(name));
  if (unpublished.length) {
    throw new Error(`SERVICE_COLLECTIONS lacks primary collections: ${unpublished.join(', ')}`);
  }
  const config: Config = {
    path: typeFiles(root),
    tsconfig: `${root}/tsconfig.json`,
    type: '*',
    expose: 'export',
    topRef: false,
    skipTypeCheck: true,
    jsDoc: 'extended',
  };
  const generator = createGenerator(config);
  const collections: Record<string, ReadModelCollection> = {};
  for (const name of [...all.keys()].sort()) {
    const owner = all.get(name) as Owner;
    const document = generator.createSchema(owner.type) as JsonSchema;
    document.additionalProperties = false;
    if (owner.projection) {
      document.properties = { ...(document.properties as JsonSchema), _position: POSITION_FIELD };
      document.required = [...((document.required as string[]) ?? []), '_position'];
    }
    collections[name] = {
      store: primaryNames.has(name) ? 'primary' : 'read-models',
      projection: owner.projection,
      projectionVersion: owner.version,
      writtenBy: owner.writtenBy,
      description: owner.description,
      indexes: owner.indexes,
      document,
    };
  }
  return {
    product: 'Slipway',
    description:
      'The document shape of every collection analysts can query, in the store named by its ' +
      '`store` (SQLite: table rm_<collection>, column doc, of read-models.sqlite or ' +
      'primary.sqlite in the data directory; MongoDB: the collection of that name in the ' +
      'database of SLIPWAY_MONGODB_URL, or for the primary store in that name + _primary), ' +
      'generated from the types of the code that writes it by `npm run contract:generate`. ' +
      'The read-models store holds the projections (rebuildable from the events: deleting it ' +
      'rebuilds them) and their bookkeeping; the primary store holds what services write that ' +
      'no event records (deployment output, usage times, runner heartbeats, notification ' +
      'deliveries, the audit chain links): the only copy, never rebuilt.',
    collections,
  };
}
