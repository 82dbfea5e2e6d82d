// Generated from the @Procedure declarations by `npm run contract:generate`: do not edit.
// `npm run contract:check` (part of `npm test`) fails when this file and the code differ.
import type { TriggerDeploy } from '../src/deployments/commands/trigger-deploy.js';
import type { Health } from '../src/health/health.handler.js';

/** Each procedure’s message: its input and its answer, as declared. */
export interface ProcedureMessages {
  health: Health;
  triggerDeploy: TriggerDeploy;
}

/** Procedures still declared on methods (see web/src/api/answers.ts). */
export type MethodDeclared = 'accountSecurityStatus' | 'agents' | 'approvalQueue' | 'approveRequest' | 'approveServerHostKey' | 'archiveService' | 'auditTrail' | 'backupRestorePlan' | 'backups' | 'cancelDeployment' | 'changeUserRole' | 'checkServer' | 'composeDeploymentPlan' | 'configDiff' | 'confirmMfaEnrollment' | 'createAgent' | 'createDeployWebhook' | 'createNotificationChannel' | 'createToken' | 'deactivateUser' | 'decommissionServer' | 'deliveryMetrics' | 'deploymentDetails' | 'deploymentLogs' | 'deploymentPlan' | 'deployWebhooks' | 'disableMfa' | 'eraseSubjectData' | 'executeRollback' | 'generateAgentToken' | 'infrastructureInventory' | 'invalidatePrincipal' | 'inviteMember' | 'invites' | 'members' | 'notificationChannels' | 'notificationDeliveries' | 'pruneServerImages' | 'pullServerImage' | 'recentDeployments' | 'recordBackup' | 'registerServer' | 'registerService' | 'rejectRequest' | 'removeServerImage' | 'requestApproval' | 'restoreBackup' | 'revokeDeployWebhook' | 'revokeInvite' | 'revokeToken' | 'rollbackPlan' | 'rotateRecoveryCodes' | 'rotateToken' | 'scanServerHostKey' | 'sealAuditCheckpoint' | 'serverDetails' | 'serverImages' | 'servers' | 'serviceDetails' | 'services' | 'serviceStats' | 'serviceStatus' | 'setServerComposePolicy' | 'startMfaEnrollment' | 'testNotificationChannel' | 'tokens' | 'triggerBackup' | 'updateAccountSecurityPolicy' | 'updateNotificationChannel' | 'updateServer' | 'updateService' | 'verifyAuditTrail' | 'viewer';
