import { createGenerator, type Config } from 'ts-json-schema-generator';
import { applicationProjections } from '../projections/index.js';
import type { IndexSpec } from '../src/readstore/read-store.port.js';
import { SERVICE_COLLECTIONS } from './service-collections.js';
import { PRIMARY_STORE_COLLECTIONS } from '../src/app/primary-collections.js';

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
  identity_providers: {
    file: 'projections/identity-providers.projection.ts',
    type: 'IdentityProviderDoc',
  },
  password_resets: { file: 'projections/password-resets.projection.ts', type: 'PasswordResetDoc' },
  projects: { file: 'projections/projects.projection.ts', type: 'ProjectDoc' },
  project_grants: { file: 'projections/projects.projection.ts', type: 'ProjectGrantDoc' },
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
  s3_targets: { file: 'projections/s3-targets.projection.ts', type: 'S3TargetDoc' },
  backup_copies: { file: 'projections/backup-copies.projection.ts', type: 'BackupCopyDoc' },
  backup_schedules: {
    file: 'projections/backup-schedules.projection.ts',
    type: 'BackupScheduleDoc',
  },
  audit_trail: { file: 'projections/audit-trail.projection.ts', type: 'AuditEntryDoc' },
  invites: { file: 'projections/invites.projection.ts', type: 'InviteDoc' },
  notification_channels: {
    file: 'projections/notification-channels.projection.ts',
    type: 'NotificationChannelDoc',
  },
  deploy_hooks: { file: 'projections/deploy-hooks.projection.ts', type: 'DeployHookDoc' },
  drains: { file: 'projections/drains.projection.ts', type: 'DrainDoc' },
  scheduled_jobs: { file: 'projections/scheduled-jobs.projection.ts', type: 'ScheduledJobDoc' },
  job_runs: { file: 'projections/scheduled-jobs.projection.ts', type: 'JobRunDoc' },
  alert_rules: { file: 'projections/alerts.projection.ts', type: 'AlertRuleDoc' },
  alerts: { file: 'projections/alerts.projection.ts', type: 'AlertDoc' },
};

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
