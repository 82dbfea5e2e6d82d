import { createGenerator, type Config } from 'ts-json-schema-generator';
import { applicationProjections } from '../projections/index.js';
import { CHECKPOINT_COLLECTION } from '../projections/projection.js';
import type { IndexSpec } from '../src/readstore/read-store.port.js';

/** Which exported type describes the documents of each read-model collection. */
export const READ_MODEL_TYPES: Record<string, { file: string; type: string }> = {
  [CHECKPOINT_COLLECTION]: { file: 'projections/projection.ts', type: 'ProjectionCheckpoint' },
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

type JsonSchema = Record<string, unknown>;

export interface ReadModelCollection {
  /** The projection that owns the collection, or null for the runner's checkpoints. */
  projection: string | null;
  projectionVersion: number | null;
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

/**
 * The documents of every collection as the projection types declare them, plus `_position`
 * on projected documents. `root` is the repository root (where tsconfig.json is).
 */
export function buildReadModelContract(root: string): ReadModelContract {
  const owners = new Map<string, { projection: string; version: number; indexes: IndexSpec[] }>();
  for (const p of applicationProjections) {
    for (const c of p.collections) {
      owners.set(c.name, { projection: p.name, version: p.version, indexes: c.indexes ?? [] });
    }
  }
  const declared = new Set(Object.keys(READ_MODEL_TYPES));
  const missing = [...owners.keys()].filter((name) => !declared.has(name));
  const extra = [...declared].filter((n) => n !== CHECKPOINT_COLLECTION && !owners.has(n));
  if (missing.length || extra.length) {
    throw new Error(
      `contract/read-model-schema.ts READ_MODEL_TYPES is out of date: ` +
        `missing ${missing.join(', ') || 'none'}; unknown ${extra.join(', ') || 'none'}`,
    );
  }
  const config: Config = {
    path: `${root}/projections/{projection,*.projection}.ts`,
    tsconfig: `${root}/tsconfig.json`,
    type: '*',
    expose: 'export',
    topRef: false,
    skipTypeCheck: true,
    jsDoc: 'extended',
  };
  const generator = createGenerator(config);
  const collections: Record<string, ReadModelCollection> = {};
  for (const name of [...declared].sort()) {
    const owner = owners.get(name);
    const document = generator.createSchema(READ_MODEL_TYPES[name].type) as JsonSchema;
    document.additionalProperties = false;
    if (owner) {
      document.properties = { ...(document.properties as JsonSchema), _position: POSITION_FIELD };
      document.required = [...((document.required as string[]) ?? []), '_position'];
    }
    collections[name] = {
      projection: owner?.projection ?? null,
      projectionVersion: owner?.version ?? null,
      indexes: owner?.indexes ?? [],
      document,
    };
  }
  return {
    product: 'Slipway',
    description:
      'The document shape of every read-model collection (SQLite: table rm_<collection>, column ' +
      'doc; MongoDB: the collection of that name), generated from the projection types by ' +
      '`npm run contract:generate`.',
    collections,
  };
}
