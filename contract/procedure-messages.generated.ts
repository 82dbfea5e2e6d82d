// Generated from the @Procedure declarations by `npm run contract:generate`: do not edit.
// `npm run contract:check` (part of `npm test`) fails when this file and the code differ.
import type { TriggerDeploy } from '../src/deployments/commands/trigger-deploy.js';
import type { Health } from '../src/health/health.handler.js';
import type { PruneServerImages } from '../src/runner/images/prune-server-images.js';
import type { PullServerImage } from '../src/runner/images/pull-server-image.js';
import type { RemoveServerImage } from '../src/runner/images/remove-server-image.js';
import type { ServerImages } from '../src/runner/images/server-images.js';
import type { ArchiveService } from '../src/runner/lifecycle/archive-service.js';
import type { ServiceStats, ServiceStatus } from '../src/runner/observe/service-observation.js';

/** Each procedure’s message: its input and its answer, as declared. */
export interface ProcedureMessages {
  archiveService: ArchiveService;
  health: Health;
  pruneServerImages: PruneServerImages;
  pullServerImage: PullServerImage;
  removeServerImage: RemoveServerImage;
  serverImages: ServerImages;
  serviceStats: ServiceStats;
  serviceStatus: ServiceStatus;
  triggerDeploy: TriggerDeploy;
}

/** Procedures still declared on methods (see web/src/api/answers.ts). */
export type MethodDeclared = 'accountSecurityStatus' | 'agents' | 'approvalQueue' | 'approveRequest' | 'approveServerHostKey' | 'auditTrail' | 'backupRestorePlan' | 'backups' | 'cancelDeployment' | 'changeUserRole' | 'checkServer' | 'composeDeploymentPlan' | 'configDiff' | 'confirmMfaEnrollment' | 'createAgent' | 'createDeployWebhook' | 'createNotificationChannel' | 'createToken' | 'deactivateUser' | 'decommissionServer' | 'deliveryMetrics' | 'deploymentDetails' | 'deploymentLogs' | 'deploymentPlan' | 'deployWebhooks' | 'disableMfa' | 'eraseSubjectData' | 'executeRollback' | 'generateAgentToken' | 'infrastructureInventory' | 'invalidatePrincipal' | 'inviteMember' | 'invites' | 'members' | 'notificationChannels' | 'notificationDeliveries' | 'recentDeployments' | 'recordBackup' | 'registerServer' | 'registerService' | 'rejectRequest' | 'requestApproval' | 'restoreBackup' | 'revokeDeployWebhook' | 'revokeInvite' | 'revokeToken' | 'rollbackPlan' | 'rotateRecoveryCodes' | 'rotateToken' | 'scanServerHostKey' | 'sealAuditCheckpoint' | 'serverDetails' | 'servers' | 'serviceDetails' | 'services' | 'setServerComposePolicy' | 'startMfaEnrollment' | 'testNotificationChannel' | 'tokens' | 'triggerBackup' | 'updateAccountSecurityPolicy' | 'updateNotificationChannel' | 'updateServer' | 'updateService' | 'verifyAuditTrail' | 'viewer';
