// Generated from contract/api-contract.json by `npm run contract:generate`: do not edit.
// `npm run contract:check` (part of `npm test`) fails when this file and the contract differ.

/** Shared input shape `DeployHookRuleInput`. */
export interface DeployHookRuleInput {
  source: 'tag' | 'image';
  /** pattern `^[A-Za-z0-9._*-]{1,128}$` */
  pattern: string;
  /** at most 300 characters; pattern `^[^\s\p{Cc}]{1,300}$` */
  image: string;
  allowRollback?: boolean;
}

/** Shared input shape `DrainHeaderInput`. */
export interface DrainHeaderInput {
  /** pattern `^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$` */
  name: string;
  /** 1-4096 characters; pattern `^[\x20-\x7e]+$` */
  value: string;
}

/** Shared input shape `EnvVarInput`. */
export interface EnvVarInput {
  /** pattern `^[A-Za-z_][A-Za-z0-9_]{0,127}$` */
  name: string;
  /** at most 4096 characters */
  value: string;
  secret?: boolean;
}

/** Shared input shape `GitRefRuleInput`. */
export interface GitRefRuleInput {
  kind: 'branch' | 'tag';
  /** pattern `^[A-Za-z0-9._/*-]{1,128}$` */
  pattern: string;
  action: 'deploy' | 'approval' | 'ignore';
}

/** Shared input shape `OffsiteCopyInput`. */
export interface OffsiteCopyInput {
  /** uuid */
  serverId?: string;
  /** at most 200 characters; pattern `^(?!.*(^|\/)\.\.(\/|$))\/?[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/?$` */
  directory?: string;
  /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
  s3TargetId?: string;
}

/** Shared input shape `PreviewSettingsInput`. */
export interface PreviewSettingsInput {
  /** pattern `^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?=[a-z0-9-]*[a-z])[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$` */
  baseDomain: string;
  /** pattern `^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$` */
  service: string;
  /** integer; 1-65535 */
  port: number;
  tls?: 'auto' | 'off';
  /** integer; 1-20 */
  limit?: number;
  /** integer; 1-720 */
  ttlHours?: number;
  /** at most 200 items */
  env?: EnvVarInput[];
  /** integer; 16-65536 */
  memoryMb?: number;
  /** 0.05-64 */
  cpus?: number;
}

/** Shared input shape `RestoreTestInput`. */
export interface RestoreTestInput {
  /** pattern `^[a-z0-9][a-z0-9._\-/:@]{0,254}$` */
  image?: string;
  /** 1-64 items */
  command?: string[];
  /** integer; 10-3600 */
  timeLimitSeconds?: number;
}

/** Shared input shape `RoleRuleInput`. */
export interface RoleRuleInput {
  /** 1-256 characters */
  value: string;
  role: 'admin' | 'operator' | 'viewer';
}

/** Shared input shape `RouteInput`. */
export interface RouteInput {
  /** pattern `^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?=[a-z0-9-]*[a-z])[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$` */
  domain: string;
  /** at most 200 characters; pattern `^(?:\/[A-Za-z0-9._~-]+)+$` */
  pathPrefix?: string;
  /** pattern `^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$` */
  service: string;
  /** integer; 1-65535 */
  port: number;
  tls?: 'auto' | 'off';
  hsts?: boolean;
}

/** Each procedure’s input, as the server validates it (`undefined`: none). */
export interface ProcedureInputs {
  /** Team MFA policy (value, when, by whom), whether SSO is required, and whether the caller is enrolled and satisfies the policy. */
  accountSecurityStatus: undefined;
  /** Agent principals, oldest first. */
  agents: {
    /** integer; 1-100 */
    limit?: number;
    /** at most 1024 characters */
    cursor?: string;
  };
  /** A server's or a service's threshold alert rules. */
  alertRules: {
    /** uuid */
    serverId?: string;
    /** uuid */
    serviceId?: string;
  };
  /** A server's or a service's alerts, newest first: open ones (default) or all, with severity, the value that raised them, and when they were raised and resolved. For a server: its own, not its services' containers'. */
  alerts: {
    status?: 'open' | 'all';
    /** integer; 1-100 */
    limit?: number;
    /** at most 1024 characters */
    cursor?: string;
    /** uuid */
    serverId?: string;
    /** uuid */
    serviceId?: string;
  };
  /** Approval requests by status (pending, approved, rejected, expired), oldest first: {status?, limit 1-100 (50), cursor?}; `frozen` is what approving one runs (image, server, snapshot digest, env names; for a waiting one, its changes against what runs now and whether it is stale). */
  approvalQueue: {
    status?: 'pending' | 'approved' | 'rejected' | 'expired';
    /** integer; 1-100 */
    limit?: number;
    /** at most 1024 characters */
    cursor?: string;
  };
  /** Approves a request filed neither by you nor by an agent you created or minted its token, while the service is as it was when it was filed (else 409, reason "stale"); a deploy or rollback then queues the snapshot the request froze, once. */
  approveRequest: {
    /** uuid */
    approvalId: string;
    /** at most 280 characters */
    note?: string;
  };
  /** Approves the pinned host key (must match it); the server becomes ready. Then checks the SSH connection and reports it as `connection` (a failed check does not undo the approval; null when server checks are off). */
  approveServerHostKey: {
    /** uuid */
    serverId: string;
    /** pattern `^SHA256:[A-Za-z0-9+/]{43}$` */
    fingerprint: string;
  };
  /** Lets a pull request from a fork be built and previewed at the head commit you looked at (`{serviceId, number, headCommit}`; 409 if it moved since); a later push to it waits for approval again. */
  approveServicePreview: {
    /** pattern `^[0-9a-f]{40}(?:[0-9a-f]{24})?$` */
    headCommit: string;
    /** uuid */
    serviceId: string;
    /** integer; 1-999999999 */
    number: number;
  };
  /** Archives a service (a state; its history stays): new deployments and changes are refused. Refused while a deployment is queued or running. composeDown: also runs docker compose down for it on its server over SSH (outcome recorded and answered). */
  archiveService: {
    /** uuid */
    serviceId: string;
    composeDown?: boolean;
  };
  /** Who did what, when, with which credential, from where: every event and refused call, newest first; filters by actor, action, stream, resource, outcome and time. */
  auditTrail: {
    /** at most 128 characters */
    actor?: string;
    /** pattern `^[A-Za-z][A-Za-z0-9]{0,63}$` */
    action?: string;
    /** at most 200 characters */
    stream?: string;
    /** at most 300 characters */
    resource?: string;
    /** at most 128 characters */
    requestId?: string;
    outcome?: 'succeeded' | 'denied' | 'rejected';
    /** date or date-time */
    from?: string;
    /** date or date-time */
    to?: string;
    /** integer; 1-500 */
    limit?: number;
    /** at most 1024 characters */
    cursor?: string;
  };
  /** The copies of a service’s backups on other servers: where, status (copied, failed, corrupted), why, and when last read back. */
  backupCopies: {
    /** uuid */
    serviceId: string;
  };
  /** Preflight checks and steps for restoring a recorded backup. */
  backupRestorePlan: {
    /** uuid */
    backupId: string;
  };
  /** Recorded backups, newest first: {serviceId?, limit 1-100 (20), cursor?}; `scheduled` marks those a backup schedule took (its retention may delete them), `volume` the named volume a backup is a tar of, `lastRestoreTest` how its latest test restore went. */
  backups: {
    /** uuid */
    serviceId?: string;
    /** integer; 1-100 */
    limit?: number;
    /** at most 1024 characters */
    cursor?: string;
  };
  /** A service’s backup schedule and retention, its last scheduled backup and when the next is due; null when it has none. */
  backupSchedule: {
    /** uuid */
    serviceId: string;
  };
  /** Cancels a queued deployment at once; asks a running one to stop between steps. */
  cancelDeployment: {
    /** at most 280 characters */
    reason?: string;
    /** uuid */
    deploymentId: string;
  };
  /** Changes a user’s role: never of someone ranked above you, never to a role above yours or wider than your credential; the last owner stays. */
  changeUserRole: {
    /** uuid */
    userId: string;
    role: 'owner' | 'admin' | 'operator' | 'viewer';
  };
  /** Connects to a server with its pinned host key and sealed key (key exchange only until the host key is approved), runs nothing, and reports reachable, host key, authenticated, latency and the failure class. */
  checkServer: {
    /** uuid */
    serverId: string;
  };
  /** Closes a pull request’s preview (`{serviceId, number}`): its service is archived and its containers removed; closing one that is not open changes nothing. A later push to the pull request opens it again. */
  closeServicePreview: {
    /** uuid */
    serviceId: string;
    /** integer; 1-999999999 */
    number: number;
  };
  /** Preflight checks for running a compose definition on a server; no side effects. */
  composeDeploymentPlan: {
    /** uuid */
    serverId: string;
    /** 1-262144 characters */
    compose: string;
  };
  /** Field-by-field difference of two deployments’ frozen snapshots (secret values never shown). */
  configDiff: {
    /** uuid */
    fromDeploymentId: string;
    /** uuid */
    toDeploymentId: string;
  };
  /** Adds or changes a drain that streams the audit trail and/or deployment output to the team’s own tools: syslog (RFC 5424 over TLS) or OTLP logs over HTTP. Header values are stored sealed and never returned. */
  configureDrain: {
    /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
    drainId: string;
    /** 1-80 characters; pattern `^[^\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$` */
    displayName: string;
    kind: 'syslog' | 'otlp';
    /** at most 2048 characters */
    endpoint: string;
    /** at most 32768 characters */
    caCertificate?: string;
    /** at most 8 items */
    headers?: DrainHeaderInput[];
    /** 1-2 items */
    sources: Array<'audit' | 'deployment-logs'>;
    enabled?: boolean;
    startAt?: 'now' | 'beginning';
  };
  /** Adds or changes an OpenID Connect identity provider: issuer, client, allowed email domains, claim-to-role mapping. The client secret is stored sealed and never returned. */
  configureIdentityProvider: {
    /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
    providerId: string;
    /** 1-80 characters; pattern `^[^\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$` */
    displayName: string;
    /** at most 2048 characters */
    issuer: string;
    /** 1-255 characters; pattern `^[\x21-\x7e]+$` */
    clientId: string;
    /** 1-1024 characters; pattern `^[\x21-\x7e]+$` */
    clientSecret?: string;
    /** at most 50 items */
    allowedDomains?: string[];
    /** pattern `^[A-Za-z0-9_.:/-]{1,64}$` */
    roleClaim?: string;
    /** at most 100 items */
    roleRules?: RoleRuleInput[];
    defaultRole?: 'admin' | 'operator' | 'viewer';
    trustProviderMfa?: boolean;
    enabled?: boolean;
  };
  /** Adds or changes an S3 (or S3-compatible) bucket backups can be copied to: endpoint, region, bucket, key prefix and credentials; the secret access key is stored sealed and never returned. */
  configureS3Target: {
    /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
    targetId: string;
    /** 1-80 characters; pattern `^[^\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$` */
    displayName: string;
    /** at most 2048 characters */
    endpoint?: string;
    /** pattern `^[a-z0-9-]{1,64}$` */
    region: string;
    /** pattern `^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$` */
    bucket: string;
    /** at most 200 characters; pattern `^([A-Za-z0-9!_.*'()-]+\/)*$` */
    prefix?: string;
    /** 1-128 characters; pattern `^[\x21-\x7e]+$` */
    accessKeyId: string;
    /** 1-256 characters */
    secretAccessKey?: string;
  };
  /** A code from the new secret completes enrolment; returns 10 recovery codes, shown once. */
  confirmMfaEnrollment: {
    /** pattern `^\d{6}$` */
    code: string;
  };
  /** Copies a backup Slipway took to a directory on another registered server over SFTP, or to an S3 target, then reads it back: recorded as copied only when its SHA-256 matches the backup’s. */
  copyBackup: {
    /** uuid */
    backupId: string;
    /** uuid */
    serverId?: string;
    /** at most 200 characters; pattern `^(?!.*(^|\/)\.\.(\/|$))\/?[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/?$` */
    directory?: string;
    /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
    s3TargetId?: string;
  };
  /** Creates an agent principal with a preset (default agent:read-only). */
  createAgent: {
    /** 1-80 characters; pattern `^[^\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$` */
    name: string;
    preset?: 'agent:read-only' | 'agent:minimal-write' | 'agent:full';
  };
  /** Creates an inbound deploy hook for a service: `{serviceId, name, rules: [{source: "tag"|"image", pattern, image, allowRollback?}], unsignedUrl?}` → its URL (`POST /api/v1/hooks/{id}`) and signing secret, shown once (GitHub/Gitea secret, GitLab secret or signing token); with unsignedUrl, a URL that takes unsigned deliveries (Docker Hub), shown once. */
  createDeployWebhook: {
    /** uuid */
    serviceId: string;
    /** 1-80 characters; pattern `^[^\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$` */
    name: string;
    /** 1-20 items */
    rules: DeployHookRuleInput[];
    unsignedUrl?: boolean;
  };
  /** Creates a channel: `{name, kind: "webhook"|"email"|"slack", target (URL or email), subscriptions}`; a webhook channel answers its signing `secret`, shown once. */
  createNotificationChannel: {
    /** 1-80 characters; pattern `^[^\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$` */
    name: string;
    kind: 'webhook' | 'email' | 'slack';
    /** 3-2048 characters */
    target: string;
    /** at most 14 items */
    subscriptions: Array<'deployment.succeeded' | 'deployment.failed' | 'deployment.cancelled' | 'approval.requested' | 'approval.decided' | 'backup.failed' | 'audit.verification-failed' | 'token.expiring' | 'certificate.failed' | 'certificate.expiring' | 'security.break-glass' | 'job.failed' | 'alert.raised' | 'alert.resolved'>;
  };
  /** Creates a project: services and servers placed in it are reached by the people and agents granted a role in it (and by owners and admins). */
  createProject: {
    /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
    projectId: string;
    /** 1-80 characters; pattern `^[^\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$` */
    name: string;
  };
  /** Mints a token for the caller's own user, within the presenting credential's scopes; shown once. */
  createToken: {
    /** 1-80 characters; pattern `^[^\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$` */
    tokenName: string;
    /** 1-32 items */
    scopes: string[];
    /** integer; 1-365 */
    expiresInDays?: number;
    /** 1-50 items */
    projects?: string[];
  };
  /** Deactivates a user ranked no higher than you: ends their sessions and refuses their tokens. */
  deactivateUser: {
    /** uuid */
    userId: string;
  };
  /** Takes a server out of service (a state; its history stays): refused while a service that is not archived targets it; nothing is deployed to it afterwards. */
  decommissionServer: {
    /** uuid */
    serverId: string;
  };
  /** Adds or changes a scheduled job of a service: a cron schedule (time zone, overlap policy, time limit) that runs a command in a one-shot container of the service’s current deployment on its server. A caller the service’s approval rule holds back may change when a job runs, not what it runs (403, `rule: "approval-rule"`). */
  defineScheduledJob: {
    /** uuid */
    jobId?: string;
    /** uuid */
    serviceId: string;
    /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
    name: string;
    /** 1-120 characters */
    schedule: string;
    /** at most 64 characters */
    timezone?: string;
    /** pattern `^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$` */
    composeService?: string;
    /** 1-64 items */
    command: string[];
    /** integer; 1-86400 */
    timeLimitSeconds?: number;
    overlap?: 'forbid' | 'allow' | 'replace';
    enabled?: boolean;
  };
  /** Deployment frequency, lead time (request to success), change failure rate and time to restore, per service and environment and overall, over whole UTC days (windowDays 1-90, default 30), with daily counts. */
  deliveryMetrics: {
    /** integer; 1-90 */
    windowDays?: number;
    /** uuid */
    serviceId?: string;
    /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
    environment?: string;
  };
  /** One deployment: status, steps, requester, frozen snapshot (secrets masked), queue position. */
  deploymentDetails: {
    /** uuid */
    deploymentId: string;
  };
  /** Output lines the runner recorded, after a line number, in order. */
  deploymentLogs: {
    /** integer; at least 0 */
    afterLine?: number;
    /** integer; 1-1000 */
    limit?: number;
    /** uuid */
    deploymentId: string;
  };
  /** Preflight checks and steps for deploying an image to a service; no side effects. */
  deploymentPlan: {
    /** uuid */
    serviceId: string;
    /** 1-512 characters; pattern `^[\x21-\x7e]+$` */
    imageTag: string;
  };
  /** Builds a commit of the service’s git repository on its server and deploys it (`{serviceId, commit, ref?, reason?}`): queued, or an approval request when the service’s rule requires one. Honours Idempotency-Key. */
  deployServiceCommit: {
    /** uuid */
    serviceId: string;
    /** pattern `^(?:[0-9a-f]{40}|[0-9a-f]{64})$` */
    commit: string;
    /** pattern `^refs\/(?:heads|tags)\/[A-Za-z0-9._/-]{1,200}$` */
    ref?: string;
    /** 12-280 characters */
    reason?: string;
  };
  /** Deploy hooks (URL, rules, status), newest first; never their secrets. */
  deployWebhooks: {
    /** uuid */
    serviceId?: string;
    /** integer; 1-100 */
    limit?: number;
    /** at most 1024 characters */
    cursor?: string;
  };
  /** Password and a current code turn two-factor authentication off. */
  disableMfa: {
    /** 1-256 characters */
    password: string;
    /** pattern `^\d{6}$` */
    code: string;
  };
  /** The drains with their endpoints and sources (never header values), and how each is delivering: how far behind, how much delivered, the last error. */
  drains: undefined;
  /** Erases a deactivated user's personal data (email, name, client addresses) from every event by deleting their key and the keys of their invites, and removes the stored mail addressed to them; the audit chain still verifies. */
  eraseSubjectData: {
    /** uuid */
    userId: string;
  };
  /** Queues a deployment that replays a succeeded deployment’s frozen snapshot on the service’s current server (or opens an approval). */
  executeRollback: {
    /** uuid */
    serviceId: string;
    /** uuid */
    targetDeploymentId: string;
    /** 12-280 characters */
    reason?: string;
  };
  /** Mints an expiring token, within your own scopes, for an agent whose creator ranks no higher than you; the value is returned once. */
  generateAgentToken: {
    /** uuid */
    principalId: string;
    /** 1-80 characters; pattern `^[^\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$` */
    tokenName: string;
    /** integer; 1-365 */
    expiresInDays: number;
    /** 1-32 items */
    scopes?: string[];
    /** 1-50 items */
    projects?: string[];
  };
  /** Gives a member (admin, operator or viewer) or an agent (agent) a role in one project; never above your own rank or wider than your credential. */
  grantProjectRole: {
    /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
    projectId: string;
    /** uuid */
    principalId: string;
    role: 'admin' | 'operator' | 'viewer' | 'agent';
  };
  /** Service status and version, without credentials. With any valid credential also uptime, store readiness, the event store head and each projection position, lag and status. */
  health: undefined;
  /** The configured OpenID Connect identity providers with their domains and role mapping (never the client secret). */
  identityProviders: undefined;
  /** Servers and their services, each with its latest deployment and health. */
  infrastructureInventory: undefined;
  /** Refuses every token of a principal ranked no higher than you from now on (TOKEN_INVALIDATED). */
  invalidatePrincipal: {
    /** uuid */
    principalId: string;
    /** at most 280 characters */
    reason?: string;
  };
  /** Mails a single-use link (1-30 days, 7 by default) that creates an account for this email with this role; never a role above yours or wider than your credential. The link is returned to nobody. */
  inviteMember: {
    /** at most 254 characters; email */
    email: string;
    role: 'owner' | 'admin' | 'operator' | 'viewer';
    /** integer; 1-30 */
    expiresInDays?: number;
  };
  /** Invites newest first, with status pending, accepted, revoked or expired; never the link. */
  invites: {
    status?: 'pending' | 'accepted' | 'revoked' | 'expired';
    /** integer; 1-100 */
    limit?: number;
    /** at most 1024 characters */
    cursor?: string;
  };
  /** Output lines of a job run, after a line number, in order. */
  jobRunLogs: {
    /** at most 128 characters */
    runId: string;
    /** integer; at least 0 */
    afterLine?: number;
    /** integer; 1-1000 */
    limit?: number;
    /** uuid */
    jobId: string;
  };
  /** The runs of a scheduled job, newest first: trigger, scheduled time, status, exit code, why it failed or was skipped. */
  jobRuns: {
    /** uuid */
    jobId: string;
    /** integer; 1-100 */
    limit?: number;
    /** at most 1024 characters */
    cursor?: string;
  };
  /** Users of the team with their roles and status, oldest first. */
  members: {
    /** integer; 1-100 */
    limit?: number;
    /** at most 1024 characters */
    cursor?: string;
  };
  /** Moves a service or a server to another project: from then on, who may act on it is decided by their role in that project. */
  moveToProject: {
    kind: 'service' | 'server';
    /** uuid */
    resourceId: string;
    /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
    projectId: string;
  };
  /** Notification channels: kind, masked target, subscriptions, enabled. */
  notificationChannels: undefined;
  /** Deliveries newest first (`channelId?`, `status?`, `limit`, `cursor`): status, attempts, last error, next attempt. */
  notificationDeliveries: {
    /** uuid */
    channelId?: string;
    status?: 'pending' | 'delivered' | 'failed';
    /** integer; 1-100 */
    limit?: number;
    /** at most 1024 characters */
    cursor?: string;
  };
  /** Who holds a role in a project, and which (owners and team admins hold theirs everywhere). */
  projectGrants: {
    /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
    projectId: string;
  };
  /** The projects you reach (owners and admins: all), with your role in each; the default project first. */
  projects: undefined;
  /** Removes dangling images (`all`: every unused one) from a server; recorded. */
  pruneServerImages: {
    all?: boolean;
    /** uuid */
    serverId: string;
  };
  /** Pulls an image on a server (`docker pull` over SSH); recorded. */
  pullServerImage: {
    /** 1-512 characters; pattern `^[\x21-\x7e]+$` */
    reference: string;
    /** uuid */
    serverId: string;
  };
  /** Deployments, newest first: {limit 1-100 (20), status?, serviceId?, cursor?}. */
  recentDeployments: {
    /** integer; 1-100 */
    limit?: number;
    status?: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
    /** uuid */
    serviceId?: string;
    /** at most 1024 characters */
    cursor?: string;
  };
  /** Records a backup artifact: location, SHA-256 checksum, size, time. */
  recordBackup: {
    /** uuid */
    serviceId: string;
    /** 1-1024 characters */
    location: string;
    /** pattern `^sha256:[a-f0-9]{64}$` */
    checksum: string;
    /** integer; 0-9007199254740991 */
    sizeBytes: number;
    /** date or date-time */
    takenAt?: string;
  };
  /** Registers a server: SSH target, sealed private key, pinned host key fingerprint (to approve). */
  registerServer: {
    /** pattern `^[a-z0-9][a-z0-9._-]{0,79}$` */
    name: string;
    /** pattern `^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^(?:\d{1,3}\.){3}\d{1,3}$|^\[?[0-9a-fA-F:]{2,39}\]?$` */
    host: string;
    /** integer; 1-65535 */
    sshPort?: number;
    /** pattern `^[a-z_][a-z0-9_-]{0,31}$` */
    sshUser: string;
    /** at most 16384 characters; pattern `^-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----` */
    privateKey: string;
    /** pattern `^SHA256:[A-Za-z0-9+/]{43}$` */
    hostKeyFingerprint: string;
    /** at most 32 items */
    labels?: string[];
    /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
    projectId?: string;
  };
  /** Registers a service: target server, image repository, validated compose, env vars (secrets sealed), approval rule. */
  registerService: {
    /** pattern `^[a-z0-9][a-z0-9._-]{0,79}$` */
    name: string;
    /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
    environment: string;
    /** uuid */
    serverId: string;
    /** at most 255 characters; pattern `^[a-z0-9.:-]+(\/[a-z0-9._-]+)+$|^[a-z0-9._-]+$` */
    imageRepository: string;
    /** 1-262144 characters */
    compose: string;
    /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
    projectId?: string;
    /** at most 200 items */
    env?: EnvVarInput[];
    approvalRule?: 'none' | 'agents' | 'all-but-admins';
    /** at most 2048 characters; url */
    healthCheckUrl?: string;
    /** 1-1024 characters */
    backupCommand?: string;
    /** 1-1024 characters */
    restoreCommand?: string;
    /** at most 20 items */
    routes?: RouteInput[];
  };
  /** Rejects a request filed neither by you nor by an agent you created or minted its token. */
  rejectRequest: {
    /** uuid */
    approvalId: string;
    /** at most 280 characters */
    note?: string;
  };
  /** Removes an alert rule: it is checked no more, and an alert it holds open is resolved at the next check. */
  removeAlertRule: {
    /** uuid */
    ruleId: string;
  };
  /** Stops a service’s scheduled backups; the backups taken stay, and retention deletes nothing more. */
  removeBackupSchedule: {
    /** uuid */
    serviceId: string;
  };
  /** Removes a drain: it ships nothing more. Configuring the same id again starts afresh. */
  removeDrain: {
    /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
    drainId: string;
  };
  /** Removes an identity provider: sign-ins through it stop; sessions it started run until they end. */
  removeIdentityProvider: {
    /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
    providerId: string;
  };
  /** Removes an S3 target: no copy goes there any more (the copies there stay in the bucket). */
  removeS3Target: {
    /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
    targetId: string;
  };
  /** Removes a scheduled job: it runs no more; its runs stay on record. */
  removeScheduledJob: {
    /** uuid */
    jobId: string;
  };
  /** Removes an image (reference or ID) from a server (`docker image rm`); recorded. */
  removeServerImage: {
    /** 1-512 characters; pattern `^[\x21-\x7e]+$` */
    reference: string;
    /** uuid */
    serverId: string;
  };
  /** Stops a service following its git repository (its deploy key and token are dropped); removing none changes nothing. */
  removeServiceGitSource: {
    /** uuid */
    serviceId: string;
  };
  /** Renames a project (its id stays). */
  renameProject: {
    /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
    projectId: string;
    /** 1-80 characters; pattern `^[^\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$` */
    name: string;
  };
  /** Asks for approval of a deploy, rollback or restore; what it runs (the snapshot, or the restore’s server and command) is frozen. */
  requestApproval: {
    action: 'deploy' | 'rollback' | 'restore';
    /** uuid */
    serviceId: string;
    /** 1-512 characters; pattern `^[\x21-\x7e]+$` */
    imageTag?: string;
    /** uuid */
    targetDeploymentId?: string;
    /** uuid */
    backupId?: string;
    /** 12-280 characters */
    reason: string;
  };
  /** Runs an approved restore (approvalId of an approved restore request for this backup, used once, within the request's lifetime, while the service's server and restore command are those it froze, else 409 reason "stale"): verifies the artifact's SHA-256 (a mismatch is refused and recorded), then runs the service's restore command over SSH with the artifact on stdin (a volume's backup replaces the volume's content, its containers stopped meanwhile); the outcome is recorded. */
  restoreBackup: {
    /** uuid */
    backupId: string;
    /** uuid */
    approvalId: string;
  };
  /** Revokes a deploy hook: its deliveries are refused from now on. */
  revokeDeployWebhook: {
    /** uuid */
    hookId: string;
  };
  /** Withdraws a pending invite: its link stops working. Not an invite to a role above yours. */
  revokeInvite: {
    /** uuid */
    inviteId: string;
  };
  /** Takes a principal's role in one project away (in the default project, its team role applies again). */
  revokeProjectRole: {
    /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
    projectId: string;
    /** uuid */
    principalId: string;
  };
  /** Revokes a token of a principal ranked no higher than you; refused everywhere once this answers. */
  revokeToken: {
    /** uuid */
    tokenId: string;
  };
  /** Preflight checks for rolling back (default target: the previous succeeded deployment). */
  rollbackPlan: {
    /** uuid */
    serviceId: string;
    /** uuid */
    targetDeploymentId?: string;
  };
  /** A current code buys a new set of 10 recovery codes; the old set stops working. */
  rotateRecoveryCodes: {
    /** pattern `^\d{6}$` */
    code: string;
  };
  /** Mints a replacement of your own token or of an agent’s you may manage; the old one is refused after overlapMinutes. */
  rotateToken: {
    /** uuid */
    tokenId: string;
    /** integer; 0-10080 */
    overlapMinutes: number;
  };
  /** Runs a scheduled job now, from the service’s current deployment; answers the run id at once (follow it with jobRuns and jobRunLogs). */
  runScheduledJob: {
    /** uuid */
    jobId: string;
  };
  /** The S3 targets backups can be copied to, by id and name only: what a backup schedule names. */
  s3TargetNames: undefined;
  /** The S3 buckets backups can be copied to, with endpoint, region, bucket, prefix and access key id (never the secret). */
  s3Targets: undefined;
  /** Fetches the SSH host key fingerprint {host, port?} presents (key exchange only, no login), to pin with registerServer and repeat to approveServerHostKey. */
  scanServerHostKey: {
    /** pattern `^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^(?:\d{1,3}\.){3}\d{1,3}$|^\[?[0-9a-fA-F:]{2,39}\]?$` */
    host: string;
    /** integer; 1-65535 */
    port?: number;
  };
  /** A service’s scheduled jobs: schedule, command, limits, the last run and when the next is due. */
  scheduledJobs: {
    /** uuid */
    serviceId: string;
  };
  /** Seals a signed checkpoint of the audit chain now (also done every N events or T seconds). */
  sealAuditCheckpoint: undefined;
  /** One server: connection settings (never its key), status, last check, its services and their routes, and its edge proxy’s last sync. */
  serverDetails: {
    /** uuid */
    serverId: string;
  };
  /** The images on a server (`docker image ls` over SSH): repository, tag, ID, digest. */
  serverImages: {
    /** uuid */
    serverId: string;
  };
  /** A server's metrics history, oldest first: CPU, memory and disk use (percent), memory and disk used and Docker's disk use (bytes); as read for recent windows, hourly means and maxima for longer ones. */
  serverMetrics: {
    /** uuid */
    serverId: string;
    /** integer; 1-720 */
    hours?: number;
  };
  /** Servers oldest first (limit 1-100, default 20, cursor; status pending-host-key|ready|decommissioned); never a key. */
  servers: {
    /** integer; 1-100 */
    limit?: number;
    /** at most 1024 characters */
    cursor?: string;
    status?: 'pending-host-key' | 'ready' | 'decommissioned';
  };
  /** One service: settings (secret env values masked), compose, server, its five latest deployments, how many backups it has, the named volumes its compose file declares, the certificates of its TLS domains (issuer, expiry, last error) and the git repository it follows. */
  serviceDetails: {
    /** uuid */
    serviceId: string;
  };
  /** A service's containers' metrics history, oldest first: CPU and memory use, restarts, and each container's last state and health; as read for recent windows, hourly means and maxima for longer ones. */
  serviceMetrics: {
    /** uuid */
    serviceId: string;
    /** integer; 1-720 */
    hours?: number;
  };
  /** A service’s pull-request previews: number, state (waiting for approval, live, closing), domain and URL, head commit, author, title, expiry, the preview’s service and its latest deployment. */
  servicePreviews: {
    /** uuid */
    serviceId: string;
  };
  /** Services oldest first (limit 1-100, default 20, cursor; serverId?, status active|archived); secret env values masked. */
  services: {
    /** integer; 1-100 */
    limit?: number;
    /** at most 1024 characters */
    cursor?: string;
    /** uuid */
    serverId?: string;
    status?: 'active' | 'archived';
  };
  /** CPU, memory, network and block I/O of the service's running containers (docker stats --no-stream). */
  serviceStats: {
    /** uuid */
    serviceId: string;
  };
  /** The service's containers as its server reports them now (docker compose ps + inspect): state, health, restarts, published ports, image digest. */
  serviceStatus: {
    /** uuid */
    serviceId: string;
  };
  /** Adds or changes a threshold alert rule on a server (CPU, memory, disk, Docker disk) or on each container of a service (CPU, memory): warning and critical levels held for a duration raise an alert, notified once per incident, and its recovery. */
  setAlertRule: {
    /** uuid */
    ruleId?: string;
    /** uuid */
    serverId?: string;
    /** uuid */
    serviceId?: string;
    /** pattern `^[a-z0-9][a-z0-9-]{0,39}$` */
    name: string;
    metric: 'cpuPercent' | 'memoryPercent' | 'memoryBytes' | 'diskPercent' | 'dockerDiskBytes';
    /** 0-1000000000000000 */
    warning?: number;
    /** 0-1000000000000000 */
    critical?: number;
    /** integer; 0-3600 */
    forSeconds?: number;
    enabled?: boolean;
  };
  /** Sets when a service’s backups are taken by themselves (a cron schedule in a time zone): its backup command and named volumes; how many are kept (newest N, one a day for N days, one a week for N weeks; older ones are deleted); where each is copied (a server over SFTP, or S3); and a test restore of each into a scratch container. A caller the service’s approval rule holds back may keep or drop the restore test, not choose its image or command (403, `rule: "approval-rule"`). */
  setBackupSchedule: {
    /** uuid */
    serviceId: string;
    /** 1-120 characters */
    schedule: string;
    /** at most 64 characters */
    timezone?: string;
    /** integer; 0-1000 */
    keepLast?: number;
    /** integer; 0-3660 */
    keepDaily?: number;
    /** integer; 0-520 */
    keepWeekly?: number;
    command?: boolean;
    /** at most 10 items */
    volumes?: string[];
    restoreTest?: RestoreTestInput;
    offsite?: OffsiteCopyInput;
    enabled?: boolean;
  };
  /** Owner/admin: the compose capabilities a server allows (privileged, hostNetwork, dockerSocket, ...); replaces the list, [] refuses all. */
  setServerComposePolicy: {
    /** uuid */
    serverId: string;
    /** at most 20 items */
    allow: Array<'privileged' | 'hostNetwork' | 'hostPid' | 'hostIpc' | 'hostUts' | 'hostUserns' | 'hostCgroup' | 'capabilities' | 'devices' | 'unconfined' | 'dockerSocket' | 'hostRoot' | 'sensitiveHostPaths' | 'composeFiles' | 'otherContainers' | 'runtime' | 'sshAgent' | 'providers' | 'hostMounts' | 'logDrivers'>;
  };
  /** Sets the git repository a service follows: `{serviceId, repository (git@host:path, ssh://… or https://…), hostKeyFingerprint (SSH), token? (HTTPS, sealed), rules: [{kind: "branch"|"tag", pattern, action: "deploy"|"approval"|"ignore"}], contextPath?, dockerfile?, composeFile?, rotateDeployKey?, rotateWebhookSecret?, statusProvider?, statusApiUrl?, statusToken?, buildServerId?, pushImage?, previews?: {baseDomain, service, port, tls?, limit?, ttlHours?, env?, memoryMb?, cpus?}}` → the deploy key’s public half for SSH sources, and the push webhook’s path and secret (the secret only when this call made it). */
  setServiceGitSource: {
    /** uuid */
    serviceId: string;
    /** at most 300 characters */
    repository: string;
    /** pattern `^SHA256:[A-Za-z0-9+/]{43}$` */
    hostKeyFingerprint?: string;
    /** 8-512 characters; pattern `^[\x21-\x7e]+$` */
    token?: string;
    /** pattern `^[A-Za-z0-9._-]{1,64}$` */
    tokenUsername?: string;
    /** at most 20 items */
    rules?: GitRefRuleInput[];
    /** pattern `^(?!.*(?:^|\/)\.\.(?:\/|$))(?!\/)[A-Za-z0-9._/-]{1,200}$` */
    contextPath?: string;
    /** pattern `^(?!.*(?:^|\/)\.\.(?:\/|$))(?!\/)[A-Za-z0-9._/-]{1,200}$` */
    dockerfile?: string;
    /** pattern `^(?!.*(?:^|\/)\.\.(?:\/|$))(?!\/)[A-Za-z0-9._/-]{1,200}$` */
    composeFile?: string;
    rotateDeployKey?: boolean;
    rotateWebhookSecret?: boolean;
    /** uuid */
    buildServerId?: string;
    pushImage?: boolean;
    statusProvider?: 'github' | 'gitlab' | 'gitea';
    /** at most 300 characters; url */
    statusApiUrl?: string;
    /** 8-512 characters; pattern `^[\x21-\x7e]+$` */
    statusToken?: string;
    previews?: PreviewSettingsInput;
  };
  /** Re-enter the password; returns {otpauthUri, secret} for the authenticator, shown once. */
  startMfaEnrollment: {
    /** 1-256 characters */
    password: string;
  };
  /** Brings a server’s edge proxy (Caddy) to the configuration its services’ routes derive: starts, restarts or upgrades it when needed, loads a changed configuration, joins routed containers; idempotent, recorded. */
  syncServerEdge: {
    /** uuid */
    serverId: string;
  };
  /** Restores a backup into a scratch container on the service's server (never into the service): the artifact is verified, then piped into a test command in a one-shot container without network (e.g. pg_restore --list; a volume's tar is unpacked by default). The outcome is recorded and a failure notified. A caller the service's approval rule holds back runs the schedule's test only (a chosen image and command: 403, `rule: "approval-rule"`). */
  testBackupRestore: {
    /** uuid */
    backupId: string;
    /** pattern `^[a-z0-9][a-z0-9._\-/:@]{0,254}$` */
    image?: string;
    /** 1-64 items */
    command?: string[];
    /** integer; 10-3600 */
    timeLimitSeconds?: number;
  };
  /** Queues a test message on a channel: `{channelId}` → `{testId}`; its delivery shows in `notificationDeliveries`. */
  testNotificationChannel: {
    /** uuid */
    channelId: string;
  };
  /** API token metadata (never values), newest first, optionally for one principal. */
  tokens: {
    /** uuid */
    principalId?: string;
    /** integer; 1-100 */
    limit?: number;
    /** at most 1024 characters */
    cursor?: string;
  };
  /** Runs the service's backup command over SSH, or tars one of its compose file's named volumes (`volume`); records location, SHA-256 and size. */
  triggerBackup: {
    /** uuid */
    serviceId: string;
    /** pattern `^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$` */
    volume?: string;
  };
  /** Queues a deployment (FIFO per service), or opens an approval when the service rule requires one. Honours Idempotency-Key. */
  triggerDeploy: {
    /** uuid */
    serviceId: string;
    /** 1-512 characters; pattern `^[\x21-\x7e]+$` */
    imageTag: string;
    /** 12-280 characters */
    reason?: string;
  };
  /** Sets the team MFA policy: optional, privileged (owners, admins, operators) or all. */
  updateAccountSecurityPolicy: {
    policy: 'optional' | 'privileged' | 'all';
  };
  /** Changes a channel: `{channelId, name?, target?, subscriptions?, enabled?}`. */
  updateNotificationChannel: {
    /** uuid */
    channelId: string;
    /** 1-80 characters; pattern `^[^\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$` */
    name?: string;
    /** 3-2048 characters */
    target?: string;
    /** at most 14 items */
    subscriptions?: Array<'deployment.succeeded' | 'deployment.failed' | 'deployment.cancelled' | 'approval.requested' | 'approval.decided' | 'backup.failed' | 'audit.verification-failed' | 'token.expiring' | 'certificate.failed' | 'certificate.expiring' | 'security.break-glass' | 'job.failed' | 'alert.raised' | 'alert.resolved'>;
    enabled?: boolean;
  };
  /** Changes a server’s labels, SSH user, port or private key (sealed, never returned); a new hostKeyFingerprint is pinned and the server is pending-host-key until approveServerHostKey repeats it. */
  updateServer: {
    /** uuid */
    serverId: string;
    /** at most 32 items */
    labels?: string[];
    /** pattern `^[a-z_][a-z0-9_-]{0,31}$` */
    sshUser?: string;
    /** integer; 1-65535 */
    sshPort?: number;
    /** at most 16384 characters; pattern `^-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----` */
    privateKey?: string;
    /** pattern `^SHA256:[A-Za-z0-9+/]{43}$` */
    hostKeyFingerprint?: string;
  };
  /** Changes fields of a service; later deployments use them, earlier snapshots stay frozen. A caller the service’s approval rule holds back may not weaken the rule or change its backup or restore command (403, `rule: "approval-rule"`). */
  updateService: {
    /** uuid */
    serviceId: string;
    /** uuid */
    serverId?: string;
    /** at most 255 characters; pattern `^[a-z0-9.:-]+(\/[a-z0-9._-]+)+$|^[a-z0-9._-]+$` */
    imageRepository?: string;
    /** 1-262144 characters */
    compose?: string;
    /** at most 200 items */
    setEnv?: EnvVarInput[];
    /** at most 200 items */
    removeEnv?: string[];
    /** at most 200 items */
    env?: EnvVarInput[];
    approvalRule?: 'none' | 'agents' | 'all-but-admins';
    /** at most 2048 characters; url */
    healthCheckUrl?: string;
    /** 1-1024 characters */
    backupCommand?: string;
    /** 1-1024 characters */
    restoreCommand?: string;
    /** at most 20 items */
    routes?: RouteInput[];
  };
  /** Requires (or stops requiring) humans to sign in through an identity provider. Owners keep password and TOTP as break-glass, audited and notified. */
  updateSsoPolicy: {
    required: boolean;
  };
  /** Recomputes the hash chain (all events, or fromPosition-toPosition from the signed checkpoint before it), checks the checkpoints, that the store still holds the last one signed beside the key (and expectCheckpoint, one kept elsewhere), and the trail entries against their events; names the first bad position. */
  verifyAuditTrail: {
    /** integer; 1-9007199254740991 */
    fromPosition?: number;
    /** integer; 1-9007199254740991 */
    toPosition?: number;
    /** pattern `^([1-9][0-9]{0,14}):([0-9a-f]{64})$` */
    expectCheckpoint?: string;
  };
  /** Reads every copy of a service’s backups back from its server and compares its SHA-256 with the backup’s; a copy that changed is recorded (and notified) as corrupted. */
  verifyBackupCopies: {
    /** uuid */
    serviceId: string;
  };
  /** The calling identity: principal, auth method, effective scopes, token metadata, session. */
  viewer: undefined;
}

/** How each procedure is called and who may call it. */
export const PROCEDURES = {
  accountSecurityStatus: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: [], mfaExempt: true },
  agents: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['members:read'], mfaExempt: false },
  alertRules: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['diagnostics:read'], mfaExempt: false },
  alerts: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['diagnostics:read'], mfaExempt: false },
  approvalQueue: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['approval:read'], mfaExempt: false },
  approveRequest: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator'], scopes: ['approvals:decide'], mfaExempt: false },
  approveServerHostKey: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['server:write'], mfaExempt: false },
  approveServicePreview: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator'], scopes: ['approvals:decide'], mfaExempt: false },
  archiveService: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator'], scopes: ['service:write'], mfaExempt: false },
  auditTrail: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['audit:read'], mfaExempt: false },
  backupCopies: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['service:read'], mfaExempt: false },
  backupRestorePlan: { method: 'GET', lane: 'planning', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['deploy:plan'], mfaExempt: false },
  backups: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['service:read'], mfaExempt: false },
  backupSchedule: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['service:read'], mfaExempt: false },
  cancelDeployment: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['deploy:cancel'], mfaExempt: false },
  changeUserRole: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['members:manage'], mfaExempt: false },
  checkServer: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['server:write'], mfaExempt: false },
  closeServicePreview: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator'], scopes: ['service:write'], mfaExempt: false },
  composeDeploymentPlan: { method: 'GET', lane: 'planning', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['deploy:plan'], mfaExempt: false },
  configDiff: { method: 'GET', lane: 'planning', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['deploy:plan'], mfaExempt: false },
  configureDrain: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['audit:read', 'notifications:manage'], mfaExempt: false },
  configureIdentityProvider: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner'], scopes: ['security:manage'], mfaExempt: false },
  configureS3Target: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['backup:write'], mfaExempt: false },
  confirmMfaEnrollment: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer'], scopes: [], mfaExempt: true },
  copyBackup: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['backup:write'], mfaExempt: false },
  createAgent: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['members:manage'], mfaExempt: false },
  createDeployWebhook: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator'], scopes: ['deploy:start', 'service:write'], mfaExempt: false },
  createNotificationChannel: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['notifications:manage'], mfaExempt: false },
  createProject: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['members:manage'], mfaExempt: false },
  createToken: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['tokens:manage'], mfaExempt: false },
  deactivateUser: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['members:manage'], mfaExempt: false },
  decommissionServer: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['server:write'], mfaExempt: false },
  defineScheduledJob: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['deploy:start', 'service:write'], mfaExempt: false },
  deliveryMetrics: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['deploy:read'], mfaExempt: false },
  deploymentDetails: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['deploy:read'], mfaExempt: false },
  deploymentLogs: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['deploy:read'], mfaExempt: false },
  deploymentPlan: { method: 'GET', lane: 'planning', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['deploy:plan'], mfaExempt: false },
  deployServiceCommit: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['deploy:start'], mfaExempt: false },
  deployWebhooks: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['service:read'], mfaExempt: false },
  disableMfa: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer'], scopes: [], mfaExempt: false },
  drains: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['notifications:read'], mfaExempt: false },
  eraseSubjectData: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner'], scopes: ['privacy:erase'], mfaExempt: false },
  executeRollback: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['deploy:start'], mfaExempt: false },
  generateAgentToken: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['tokens:manage'], mfaExempt: false },
  grantProjectRole: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['members:manage'], mfaExempt: false },
  health: { method: 'GET', lane: 'read', auth: 'public', roles: [], scopes: [], mfaExempt: false },
  identityProviders: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['members:read'], mfaExempt: false },
  infrastructureInventory: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['server:read'], mfaExempt: false },
  invalidatePrincipal: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['members:manage'], mfaExempt: false },
  inviteMember: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['members:manage'], mfaExempt: false },
  invites: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['members:read'], mfaExempt: false },
  jobRunLogs: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['deploy:read'], mfaExempt: false },
  jobRuns: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['deploy:read'], mfaExempt: false },
  members: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer'], scopes: ['members:read'], mfaExempt: false },
  moveToProject: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['members:manage'], mfaExempt: false },
  notificationChannels: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['notifications:read'], mfaExempt: false },
  notificationDeliveries: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['notifications:read'], mfaExempt: false },
  projectGrants: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['members:read'], mfaExempt: false },
  projects: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['service:read'], mfaExempt: false },
  pruneServerImages: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['server:write'], mfaExempt: false },
  pullServerImage: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['server:write'], mfaExempt: false },
  recentDeployments: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['deploy:read'], mfaExempt: false },
  recordBackup: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['backup:write'], mfaExempt: false },
  registerServer: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['server:write'], mfaExempt: false },
  registerService: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['service:write'], mfaExempt: false },
  rejectRequest: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator'], scopes: ['approvals:decide'], mfaExempt: false },
  removeAlertRule: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator'], scopes: ['notifications:manage'], mfaExempt: false },
  removeBackupSchedule: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['backup:write'], mfaExempt: false },
  removeDrain: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['audit:read', 'notifications:manage'], mfaExempt: false },
  removeIdentityProvider: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner'], scopes: ['security:manage'], mfaExempt: false },
  removeS3Target: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['backup:write'], mfaExempt: false },
  removeScheduledJob: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['service:write'], mfaExempt: false },
  removeServerImage: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['server:write'], mfaExempt: false },
  removeServiceGitSource: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator'], scopes: ['service:write'], mfaExempt: false },
  renameProject: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['members:manage'], mfaExempt: false },
  requestApproval: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['approvals:request'], mfaExempt: false },
  restoreBackup: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['backup:write'], mfaExempt: false },
  revokeDeployWebhook: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator'], scopes: ['service:write'], mfaExempt: false },
  revokeInvite: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['members:manage'], mfaExempt: false },
  revokeProjectRole: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['members:manage'], mfaExempt: false },
  revokeToken: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['tokens:manage'], mfaExempt: false },
  rollbackPlan: { method: 'GET', lane: 'planning', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['deploy:plan'], mfaExempt: false },
  rotateRecoveryCodes: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer'], scopes: [], mfaExempt: false },
  rotateToken: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['tokens:manage'], mfaExempt: false },
  runScheduledJob: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['deploy:start'], mfaExempt: false },
  s3TargetNames: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['backup:write'], mfaExempt: false },
  s3Targets: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['service:read'], mfaExempt: false },
  scanServerHostKey: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['server:write'], mfaExempt: false },
  scheduledJobs: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['service:read'], mfaExempt: false },
  sealAuditCheckpoint: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['audit:seal'], mfaExempt: false },
  serverDetails: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['server:read'], mfaExempt: false },
  serverImages: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['server:read'], mfaExempt: false },
  serverMetrics: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['diagnostics:read'], mfaExempt: false },
  servers: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['server:read'], mfaExempt: false },
  serviceDetails: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['service:read'], mfaExempt: false },
  serviceMetrics: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['diagnostics:read'], mfaExempt: false },
  servicePreviews: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['service:read'], mfaExempt: false },
  services: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['service:read'], mfaExempt: false },
  serviceStats: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['diagnostics:read'], mfaExempt: false },
  serviceStatus: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: ['diagnostics:read'], mfaExempt: false },
  setAlertRule: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator'], scopes: ['notifications:manage'], mfaExempt: false },
  setBackupSchedule: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['backup:write'], mfaExempt: false },
  setServerComposePolicy: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['server:write'], mfaExempt: false },
  setServiceGitSource: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator'], scopes: ['deploy:start', 'service:write'], mfaExempt: false },
  startMfaEnrollment: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer'], scopes: [], mfaExempt: true },
  syncServerEdge: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['server:write'], mfaExempt: false },
  testBackupRestore: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['backup:write'], mfaExempt: false },
  testNotificationChannel: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['notifications:manage'], mfaExempt: false },
  tokens: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['tokens:read'], mfaExempt: false },
  triggerBackup: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['backup:write'], mfaExempt: false },
  triggerDeploy: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['deploy:start'], mfaExempt: false },
  updateAccountSecurityPolicy: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['security:manage'], mfaExempt: false },
  updateNotificationChannel: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['notifications:manage'], mfaExempt: false },
  updateServer: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['server:write'], mfaExempt: false },
  updateService: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['service:write'], mfaExempt: false },
  updateSsoPolicy: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner'], scopes: ['security:manage'], mfaExempt: false },
  verifyAuditTrail: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin'], scopes: ['audit:read'], mfaExempt: false },
  verifyBackupCopies: { method: 'POST', lane: 'command', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'agent'], scopes: ['backup:write'], mfaExempt: false },
  viewer: { method: 'GET', lane: 'read', auth: 'authenticated', roles: ['owner', 'admin', 'operator', 'viewer', 'agent'], scopes: [], mfaExempt: true },
} as const;

export type ProcedureName = keyof typeof PROCEDURES;

/** Every error code an answer may carry, with its HTTP status. */
export const ERROR_STATUS = { AUTH_REQUIRED: 401, TOKEN_INVALID: 401, TOKEN_REVOKED: 401, TOKEN_EXPIRED: 401, TOKEN_INVALIDATED: 401, SESSION_EXPIRED: 401, INVALID_CREDENTIALS: 401, MFA_REQUIRED: 403, FORBIDDEN: 403, BAD_REQUEST: 400, NOT_FOUND: 404, METHOD_NOT_SUPPORTED: 405, CONFLICT: 409, PAYLOAD_TOO_LARGE: 413, RATE_LIMITED: 429, INTERNAL_SERVER_ERROR: 500, SERVICE_UNAVAILABLE: 503 } as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
