import { capabilitiesOf } from '../../src/access/capabilities.js';

/**
 * A valid input for every procedure, used by the authorization matrix. Targets are ids that do
 * not exist, so an allowed call proves the guard let it through (it then answers 404) without
 * changing anything that matters. A procedure missing here fails the matrix test.
 */
const NOBODY = '00000000-0000-4000-8000-000000000000';
const FINGERPRINT = `SHA256:${'A'.repeat(43)}`;
const COMPOSE = 'services:\n  api:\n    image: ghcr.io/acme/api:1\n';

export const MATRIX_INPUTS: Record<string, unknown> = {
  health: undefined,
  viewer: undefined,
  agents: { limit: 5 },
  members: { limit: 5 },
  tokens: { limit: 5 },
  createAgent: { name: 'matrix-agent' },
  generateAgentToken: { principalId: NOBODY, tokenName: 'matrix', expiresInDays: 1 },
  createToken: { tokenName: 'matrix', scopes: ['deploy:read'], expiresInDays: 1 },
  revokeToken: { tokenId: NOBODY },
  rotateToken: { tokenId: NOBODY, overlapMinutes: 0 },
  invalidatePrincipal: { principalId: NOBODY },
  changeUserRole: { userId: NOBODY, role: 'viewer' },
  deactivateUser: { userId: NOBODY },
  inviteMember: { email: 'matrix-invitee@example.com', role: 'viewer' },
  revokeInvite: { inviteId: NOBODY },
  invites: { limit: 5 },
  updateServer: { serverId: NOBODY, labels: ['tier=web'] },
  decommissionServer: { serverId: NOBODY },
  archiveService: { serviceId: NOBODY },
  services: { limit: 5 },
  serviceDetails: { serviceId: NOBODY },
  servers: { limit: 5 },
  serverDetails: { serverId: NOBODY },
  accountSecurityStatus: undefined,
  updateAccountSecurityPolicy: { policy: 'optional' },
  startMfaEnrollment: { password: 'not the password' },
  confirmMfaEnrollment: { code: '000000' },
  rotateRecoveryCodes: { code: '000000' },
  disableMfa: { password: 'not the password', code: '000000' },
  registerServer: {
    name: 'matrix-server',
    host: '10.0.0.3',
    sshUser: 'deploy',
    privateKey: '-----BEGIN OPENSSH PRIVATE KEY-----\nx\n-----END OPENSSH PRIVATE KEY-----\n',
    hostKeyFingerprint: FINGERPRINT,
  },
  approveServerHostKey: { serverId: NOBODY, fingerprint: FINGERPRINT },
  // Test apps keep server checks off: an allowed call is answered 409 and connects nowhere.
  scanServerHostKey: { host: '10.0.0.3', port: 22 },
  checkServer: { serverId: NOBODY },
  serverImages: { serverId: NOBODY },
  pullServerImage: { serverId: NOBODY, reference: 'ghcr.io/acme/api:1' },
  removeServerImage: { serverId: NOBODY, reference: 'ghcr.io/acme/api:1' },
  pruneServerImages: { serverId: NOBODY },
  syncServerEdge: { serverId: NOBODY },
  serviceStatus: { serviceId: NOBODY },
  serviceStats: { serviceId: NOBODY },
  setServerComposePolicy: { serverId: NOBODY, allow: ['privileged'] },
  registerService: {
    name: 'matrix',
    environment: 'production',
    serverId: NOBODY,
    imageRepository: 'ghcr.io/acme/api',
    compose: COMPOSE,
  },
  updateService: { serviceId: NOBODY, approvalRule: 'none' },
  triggerDeploy: { serviceId: NOBODY, imageTag: 'ghcr.io/acme/api:1' },
  executeRollback: { serviceId: NOBODY, targetDeploymentId: NOBODY },
  cancelDeployment: { deploymentId: NOBODY },
  requestApproval: {
    action: 'deploy',
    serviceId: NOBODY,
    imageTag: 'ghcr.io/acme/api:1',
    reason: 'matrix reason, long enough',
  },
  approveRequest: { approvalId: NOBODY },
  rejectRequest: { approvalId: NOBODY },
  recordBackup: {
    serviceId: NOBODY,
    location: 's3://backups/x.dump',
    checksum: `sha256:${'0'.repeat(64)}`,
    sizeBytes: 1,
  },
  recentDeployments: { limit: 5 },
  deploymentDetails: { deploymentId: NOBODY },
  deploymentLogs: { deploymentId: NOBODY },
  infrastructureInventory: undefined,
  deliveryMetrics: { windowDays: 7 },
  approvalQueue: { limit: 5 },
  backups: { serviceId: NOBODY, limit: 5 },
  deploymentPlan: { serviceId: NOBODY, imageTag: 'ghcr.io/acme/api:1' },
  composeDeploymentPlan: { serverId: NOBODY, compose: COMPOSE },
  rollbackPlan: { serviceId: NOBODY },
  backupRestorePlan: { backupId: NOBODY },
  configDiff: { fromDeploymentId: NOBODY, toDeploymentId: NOBODY },
  triggerBackup: { serviceId: NOBODY },
  restoreBackup: { backupId: NOBODY, approvalId: NOBODY },
  verifyAuditTrail: { fromPosition: 1, toPosition: 10 },
  auditTrail: { limit: 5, outcome: 'denied' },
  eraseSubjectData: { userId: NOBODY },
  sealAuditCheckpoint: undefined,
  createNotificationChannel: {
    name: 'matrix-channel',
    kind: 'webhook',
    target: 'https://hooks.example.invalid/slipway',
    subscriptions: [],
  },
  updateNotificationChannel: { channelId: NOBODY, enabled: false },
  testNotificationChannel: { channelId: NOBODY },
  notificationChannels: undefined,
  notificationDeliveries: { limit: 5 },
  createDeployWebhook: {
    serviceId: NOBODY,
    name: 'matrix-hook',
    rules: [{ source: 'tag', pattern: 'v*', image: 'ghcr.io/acme/api:{version}' }],
  },
  revokeDeployWebhook: { hookId: NOBODY },
  setServiceGitSource: {
    serviceId: NOBODY,
    repository: 'https://git.example.invalid/acme/api.git',
    rules: [{ kind: 'branch', pattern: 'main', action: 'deploy' }],
  },
  removeServiceGitSource: { serviceId: NOBODY },
  deployServiceCommit: { serviceId: NOBODY, commit: 'a'.repeat(40) },
  servicePreviews: { serviceId: NOBODY },
  approveServicePreview: { serviceId: NOBODY, number: 1 },
  closeServicePreview: { serviceId: NOBODY, number: 1 },
  deployWebhooks: { limit: 5 },
};

/**
 * What each procedure creates from its matrix input, as scopes: a caller whose effective scopes
 * lack any of them is refused by narrowing (the token asked for, the default agent preset, the
 * role granted).
 */
export const MATRIX_GRANTS: Record<string, readonly string[]> = {
  createToken: ['deploy:read'],
  createAgent: capabilitiesOf({ kind: 'agent', role: 'agent', preset: 'agent:read-only' }),
  changeUserRole: capabilitiesOf({ kind: 'user', role: 'viewer' }),
  inviteMember: capabilitiesOf({ kind: 'user', role: 'viewer' }),
};
