import { createHash } from 'node:crypto';
import { defineEvent } from '../eventstore/define-event.js';

export type ApprovalRule = 'none' | 'agents' | 'all-but-admins';

/** An env var as recorded: plain values as they are, secret ones only sealed. */
export interface RecordedEnvVar {
  name: string;
  value: string | null;
  secretCiphertext: string | null;
  /**
   * Null since values are compared sealed to sealed. Events of earlier versions hold a keyed
   * digest of the value here; it is kept (the events never change) and read only as a fallback.
   */
  secretDigest: string | null;
}

export interface Requester {
  principalId: string;
  kind: string;
  role: string;
  authMethod: string;
  tokenId: string | null;
}

/** Everything a deployment needs, frozen when it is triggered, so a replay is exact. */
export interface DeploymentSnapshot {
  serviceName: string;
  environment: string;
  serverId: string;
  imageRef: string;
  compose: string;
  env: RecordedEnvVar[];
  healthCheckUrl: string | null;
  /** Files written beside the compose file (compose intake); absent before they existed. */
  files?: DeploymentFile[];
  /** An uploaded build context, unpacked in the deployment's directory before the build. */
  context?: DeploymentContext | null;
  /** The service's routes when it was triggered: the compose services joined to the edge. */
  routes?: ServiceRoute[];
  /** The commit built into `imageRef` on the server first (a deployment of a git source). */
  git?: DeploymentGitBuild | null;
}

/**
 * What a deployment builds from its service's git source. The deploy key or token is not
 * frozen here: the runner reads the source's current credentials when it builds.
 */
export interface DeploymentGitBuild {
  repository: string;
  commit: string;
  /** `refs/heads/<branch>` or `refs/tags/<tag>` the commit was pushed to; null: asked by SHA. */
  ref: string | null;
  /** From the push delivery, cleaned (one line, bounded); null when it did not say. */
  author: string | null;
  message: string | null;
  contextPath: string;
  dockerfile: string;
  /** Where it is built (absent or null: on the deployment's server), as the source said. */
  buildServerId?: string | null;
  /** Pushed to the image repository from where it was built, and pulled by the server. */
  pushImage?: boolean;
  /** The service whose source it is built from, when not the deployment's (a preview's). */
  sourceServiceId?: string | null;
  /**
   * A ref holding the commit that a server refusing a commit by id is fetched by instead (a
   * pull request's head: `refs/pull/<n>/head`, `refs/merge-requests/<n>/head`).
   */
  fetchRef?: string | null;
  /** The address the deployment serves, reported with its commit status (a preview's). */
  previewUrl?: string | null;
  /** The repository's compose file at the commit runs, read after the build; null: the service's. */
  composeFile?: string | null;
  /** A preview's container limits, put on the repository's compose file too. */
  previewLimits?: { memoryMb: number | null; cpus: number | null } | null;
}

/** A file of a compose intake, its path relative to the deployment's directory. */
export interface DeploymentFile {
  path: string;
  contents: string;
}

/** A checked upload (see UploadReceived) that the runner copies to the server and builds. */
export interface DeploymentContext {
  uploadId: string;
  sha256: string;
  bytes: number;
}

// Stream `server-<sha256(name)>`: one server, on the stream of its unique name (stores written
// before this kept every server on the stream `fleet`, still read).
export const ServerRegistered = defineEvent<{
  serverId: string;
  name: string;
  host: string;
  sshPort: number;
  sshUser: string;
  credentialCiphertext: string;
  hostKeyFingerprint: string;
  labels: Record<string, string>;
  /** The project it was registered in; absent (before projects): the default project. */
  projectId?: string;
}>('ServerRegistered', 1);
export const ServerHostKeyApproved = defineEvent<{ serverId: string; fingerprint: string }>(
  'ServerHostKeyApproved',
  1,
);
/** What compose capabilities an owner or admin allowed on a server (the rest are refused). */
export const ServerComposePolicySet = defineEvent<{ serverId: string; allow: string[] }>(
  'ServerComposePolicySet',
  1,
);
/**
 * A connection to a registered server to see that it answers (checkServer, approveServerHostKey):
 * `login` authenticated with its key, `handshake` stopped before; `failure` is the class of why
 * not (see src/deployments/reach/connection-report.ts). Nothing was run on the server.
 */
export const ServerConnectionChecked = defineEvent<{
  serverId: string;
  mode: 'login' | 'handshake';
  address: string | null;
  ok: boolean;
  failure: string | null;
  latencyMs: number | null;
}>('ServerConnectionChecked', 1);

// Stream `host-key-scan-<sha256(host:port)>`: the keyscans of one SSH endpoint, registered or not.
/** The host key an SSH endpoint presented to a keyscan (to be pinned, then approved), or why none. */
export const ServerHostKeyScanned = defineEvent<{
  host: string;
  port: number;
  address: string | null;
  fingerprint: string | null;
  keyType: string | null;
  failure: string | null;
}>('ServerHostKeyScanned', 1);

/** What a service is set up with; `ServiceUpdated` carries any subset of it. */
export type ServiceSettings = {
  serverId: string;
  imageRepository: string;
  compose: string;
  env: RecordedEnvVar[];
  approvalRule: ApprovalRule;
  healthCheckUrl: string | null;
  backupCommand: string | null;
  /** Runs with the backup artifact on its standard input (restoreBackup); absent in older events. */
  restoreCommand?: string | null;
  /** What the server's edge proxy routes to the service; absent in older events (none). */
  routes?: ServiceRoute[];
};

/** How a routed domain is served. */
export type RouteTls = 'auto' | 'off';

/**
 * A domain (and optional path prefix) that the edge proxy of the service's server sends to one
 * compose service's container port. A domain belongs to one service across the fleet.
 */
export interface ServiceRoute {
  domain: string;
  /** `/api`: only paths under it; null: the whole domain. */
  pathPrefix: string | null;
  /** The compose service that answers. */
  service: string;
  /** The container port it listens on (never published on the host). */
  port: number;
  /**
   * `auto`: served on HTTPS with a certificate the proxy obtains over ACME, HTTP redirected to
   * it; `off`: plain HTTP only. Absent in older events: `auto`.
   */
  tls?: RouteTls;
  /** Strict-Transport-Security sent on HTTPS answers (opt-in); absent: false. */
  hsts?: boolean;
}

// Stream `service-<sha256(environment/name)>`: one service, on the stream of its unique name and
// environment (stores written before this kept every service on the stream `catalog`, still read).
export const ServiceRegistered = defineEvent<
  {
    serviceId: string;
    name: string;
    environment: string;
    /** Set for a pull request's preview: the service it previews and the request's number. */
    preview?: ServicePreviewOf;
    /** The project it was registered in; absent (before projects): the default project. */
    projectId?: string;
  } & ServiceSettings
>('ServiceRegistered', 1);

/** What a preview service previews. */
export interface ServicePreviewOf {
  serviceId: string;
  number: number;
}
/**
 * `movedFrom`: the server the service was on, when `changes.serverId` moves it (its proxy stops
 * routing the service's domains). `releasedDomains`: the domains its routes named before and the
 * new routes do not (released on their own streams after this event).
 */
export const ServiceUpdated = defineEvent<{
  serviceId: string;
  changes: Partial<ServiceSettings>;
  movedFrom?: string;
  releasedDomains?: string[];
}>('ServiceUpdated', 1);

// Stream `service-deployments-<serviceId>`: the service's queue, in trigger order. Version 2:
// same data; its idempotency key (if any) was claimed first on its own stream (below), while
// a version 1 trigger is itself the record of its key.
export const DeploymentTriggered = defineEvent<{
  deploymentId: string;
  serviceId: string;
  sequence: number;
  imageRef: string;
  trigger: 'session' | 'token' | 'agent' | 'hook' | 'rollback' | 'approval';
  requestedBy: Requester;
  snapshot: DeploymentSnapshot;
  rollbackOf: string | null;
  approvalId: string | null;
  idempotencyKey: string | null;
  inputDigest: string | null;
}>('DeploymentTriggered', 2);

// Stream `deployment-key-<serviceId>-<sha256(key)>`: the deployment an Idempotency-Key stands for.
export const IdempotencyKeyClaimed = defineEvent<{
  serviceId: string;
  deploymentId: string;
  inputDigest: string;
}>('IdempotencyKeyClaimed', 1);
export const DeploymentCancelled = defineEvent<{ deploymentId: string; reason: string }>(
  'DeploymentCancelled',
  1,
);
export const DeploymentCancellationRequested = defineEvent<{
  deploymentId: string;
  reason: string;
}>('DeploymentCancellationRequested', 1);
export const DeploymentStarted = defineEvent<{ deploymentId: string; runnerId: string }>(
  'DeploymentStarted',
  1,
);
export const DeploymentStepStarted = defineEvent<{ deploymentId: string; step: string }>(
  'DeploymentStepStarted',
  1,
);
export const DeploymentStepFinished = defineEvent<{
  deploymentId: string;
  step: string;
  ok: boolean;
  detail: string | null;
}>('DeploymentStepFinished', 1);
export const DeploymentSucceeded = defineEvent<{
  deploymentId: string;
  serviceId: string;
  imageRef: string;
  imageDigest: string | null;
}>('DeploymentSucceeded', 1);
export const DeploymentFailed = defineEvent<{
  deploymentId: string;
  reason: string;
  step: string | null;
}>('DeploymentFailed', 1);

// Stream `approval-<id>`.
export const ApprovalRequested = defineEvent<{
  approvalId: string;
  action: 'deploy' | 'rollback' | 'restore';
  serviceId: string;
  payload: Record<string, unknown>;
  reason: string;
  requestedBy: Requester;
  expiresAt: string;
}>('ApprovalRequested', 1);
// Stream `approval-claim-<serviceId>-<sha256(action, payload)>`: the request that stands for
// that input while it is pending, so that the same request is not filed twice.
export const ApprovalClaimed = defineEvent<{
  serviceId: string;
  approvalId: string;
  requestedBy: string;
  expiresAt: string;
  claimedAt: string;
}>('ApprovalClaimed', 1);
export const ApprovalGranted = defineEvent<{
  approvalId: string;
  decidedBy: string;
  note: string | null;
}>('ApprovalGranted', 1);
export const ApprovalRejected = defineEvent<{
  approvalId: string;
  decidedBy: string;
  note: string | null;
}>('ApprovalRejected', 1);
export const ApprovalExecuted = defineEvent<{ approvalId: string; deploymentId: string }>(
  'ApprovalExecuted',
  1,
);

// Stream `service-backups-<serviceId>`.
export const BackupRecorded = defineEvent<{
  backupId: string;
  serviceId: string;
  location: string;
  checksum: string;
  sizeBytes: number;
  takenAt: string;
  /**
   * The named volume of the service's compose file this is a tar of; null or absent: the
   * output of the service's backup command.
   */
  volume?: string | null;
}>('BackupRecorded', 1);

/** Legacy: every server registered before servers had their own streams. */
export const FLEET_STREAM = 'fleet';
export const serverStream = (name: string) =>
  `server-${createHash('sha256').update(name).digest('hex')}`;
export const hostKeyScanStream = (host: string, port: number) =>
  `host-key-scan-${createHash('sha256').update(`${host.toLowerCase()}:${port}`).digest('hex')}`;
/** Legacy: every service registered before services had their own streams. */
export const CATALOG_STREAM = 'catalog';
export const serviceStream = (environment: string, name: string) =>
  `service-${createHash('sha256').update(`${environment}/${name}`).digest('hex')}`;
export const serviceDeploymentsStream = (serviceId: string) => `service-deployments-${serviceId}`;
export const idempotencyKeyStream = (serviceId: string, key: string) =>
  `deployment-key-${serviceId}-${createHash('sha256').update(key).digest('hex')}`;
export const approvalStream = (approvalId: string) => `approval-${approvalId}`;
export const approvalClaimStream = (serviceId: string, inputDigest: string) =>
  `approval-claim-${serviceId}-${inputDigest}`;
export const serviceBackupsStream = (serviceId: string) => `service-backups-${serviceId}`;

/**
 * A service took the compose project name its name and environment map to: its containers,
 * networks and volumes on a server are named after it, so no two services may share one.
 */
export const ComposeProjectClaimed = defineEvent<{ project: string; serviceId: string }>(
  'ComposeProjectClaimed',
  1,
);
/** A claim taken back: the service it was made for was never registered. */
export const ComposeProjectReleased = defineEvent<{ project: string; serviceId: string }>(
  'ComposeProjectReleased',
  1,
);
export const composeProjectStream = (project: string) => `compose-project-${project}`;
