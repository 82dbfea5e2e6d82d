// Generated from the @Procedure declarations by `npm run contract:generate`: do not edit.
// `npm run contract:check` (part of `npm test`) fails when this file and the code differ.
import type { EraseSubjectData } from '../src/audit/privacy/erase-subject-data.js';
import type { SealAuditCheckpoint } from '../src/audit/seal-audit-checkpoint.js';
import type { AuditTrail } from '../src/audit/trail/audit-trail.js';
import type { VerifyAuditTrail } from '../src/audit/verify-audit-trail.js';
import type { TriggerDeploy } from '../src/deployments/commands/trigger-deploy.js';
import type { Health } from '../src/health/health.handler.js';
import type { CreateNotificationChannel } from '../src/notifications/create-notification-channel.js';
import type { NotificationChannels } from '../src/notifications/notification-channels.js';
import type { NotificationDeliveries } from '../src/notifications/notification-deliveries.js';
import type { TestNotificationChannel } from '../src/notifications/test-notification-channel.js';
import type { UpdateNotificationChannel } from '../src/notifications/update-notification-channel.js';
import type { RestoreBackup } from '../src/runner/backups/restore-backup.js';
import type { TriggerBackup } from '../src/runner/backups/trigger-backup.js';
import type { PruneServerImages } from '../src/runner/images/prune-server-images.js';
import type { PullServerImage } from '../src/runner/images/pull-server-image.js';
import type { RemoveServerImage } from '../src/runner/images/remove-server-image.js';
import type { ServerImages } from '../src/runner/images/server-images.js';
import type { ArchiveService } from '../src/runner/lifecycle/archive-service.js';
import type { ServiceStats, ServiceStatus } from '../src/runner/observe/service-observation.js';

/** Each procedure’s message: its input and its answer, as declared. */
export interface ProcedureMessages {
  archiveService: ArchiveService;
  auditTrail: AuditTrail;
  createNotificationChannel: CreateNotificationChannel;
  eraseSubjectData: EraseSubjectData;
  health: Health;
  notificationChannels: NotificationChannels;
  notificationDeliveries: NotificationDeliveries;
  pruneServerImages: PruneServerImages;
  pullServerImage: PullServerImage;
  removeServerImage: RemoveServerImage;
  restoreBackup: RestoreBackup;
  sealAuditCheckpoint: SealAuditCheckpoint;
  serverImages: ServerImages;
  serviceStats: ServiceStats;
  serviceStatus: ServiceStatus;
  testNotificationChannel: TestNotificationChannel;
  triggerBackup: TriggerBackup;
  triggerDeploy: TriggerDeploy;
  updateNotificationChannel: UpdateNotificationChannel;
  verifyAuditTrail: VerifyAuditTrail;
}

/** Procedures still declared on methods (see web/src/api/answers.ts). */
export type MethodDeclared = 'accountSecurityStatus' | 'agents' | 'approvalQueue' | 'approveRequest' | 'approveServerHostKey' | 'backupRestorePlan' | 'backups' | 'cancelDeployment' | 'changeUserRole' | 'checkServer' | 'composeDeploymentPlan' | 'configDiff' | 'confirmMfaEnrollment' | 'createAgent' | 'createDeployWebhook' | 'createToken' | 'deactivateUser' | 'decommissionServer' | 'deliveryMetrics' | 'deploymentDetails' | 'deploymentLogs' | 'deploymentPlan' | 'deployWebhooks' | 'disableMfa' | 'executeRollback' | 'generateAgentToken' | 'infrastructureInventory' | 'invalidatePrincipal' | 'inviteMember' | 'invites' | 'members' | 'recentDeployments' | 'recordBackup' | 'registerServer' | 'registerService' | 'rejectRequest' | 'requestApproval' | 'revokeDeployWebhook' | 'revokeInvite' | 'revokeToken' | 'rollbackPlan' | 'rotateRecoveryCodes' | 'rotateToken' | 'scanServerHostKey' | 'serverDetails' | 'servers' | 'serviceDetails' | 'services' | 'setServerComposePolicy' | 'startMfaEnrollment' | 'tokens' | 'updateAccountSecurityPolicy' | 'updateServer' | 'updateService' | 'viewer';
