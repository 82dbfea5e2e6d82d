// Generated from the @Procedure declarations by `npm run contract:generate`: do not edit.
// `npm run contract:check` (part of `npm test`) fails when this file and the code differ.
import type { ApproveRequest } from '../src/deployments/commands/approve-request.js';
import type { ApproveServerHostKey } from '../src/deployments/commands/approve-server-host-key.js';
import type { CancelDeployment } from '../src/deployments/commands/cancel-deployment.js';
import type { CheckServer } from '../src/deployments/commands/check-server.js';
import type { ExecuteRollback } from '../src/deployments/commands/execute-rollback.js';
import type { RecordBackup } from '../src/deployments/commands/record-backup.js';
import type { RegisterServer } from '../src/deployments/commands/register-server.js';
import type { RegisterService } from '../src/deployments/commands/register-service.js';
import type { RejectRequest } from '../src/deployments/commands/reject-request.js';
import type { RequestApproval } from '../src/deployments/commands/request-approval.js';
import type { ScanServerHostKey } from '../src/deployments/commands/scan-server-host-key.js';
import type { TriggerDeploy } from '../src/deployments/commands/trigger-deploy.js';
import type { UpdateService } from '../src/deployments/commands/update-service.js';
import type { SetServerComposePolicy } from '../src/deployments/compose-policy/set-server-compose-policy.js';
import type { Health } from '../src/health/health.handler.js';

/** Each procedure’s message: its input and its answer, as declared. */
export interface ProcedureMessages {
  approveRequest: ApproveRequest;
  approveServerHostKey: ApproveServerHostKey;
  cancelDeployment: CancelDeployment;
  checkServer: CheckServer;
  executeRollback: ExecuteRollback;
  health: Health;
  recordBackup: RecordBackup;
  registerServer: RegisterServer;
  registerService: RegisterService;
  rejectRequest: RejectRequest;
  requestApproval: RequestApproval;
  scanServerHostKey: ScanServerHostKey;
  setServerComposePolicy: SetServerComposePolicy;
  triggerDeploy: TriggerDeploy;
  updateService: UpdateService;
}

/** Procedures still declared on methods (see web/src/api/answers.ts). */
export type MethodDeclared = 'accountSecurityStatus' | 'agents' | 'approvalQueue' | 'archiveService' | 'auditTrail' | 'backupRestorePlan' | 'backups' | 'changeUserRole' | 'composeDeploymentPlan' | 'configDiff' | 'confirmMfaEnrollment' | 'createAgent' | 'createDeployWebhook' | 'createNotificationChannel' | 'createToken' | 'deactivateUser' | 'decommissionServer' | 'deliveryMetrics' | 'deploymentDetails' | 'deploymentLogs' | 'deploymentPlan' | 'deployWebhooks' | 'disableMfa' | 'eraseSubjectData' | 'generateAgentToken' | 'infrastructureInventory' | 'invalidatePrincipal' | 'inviteMember' | 'invites' | 'members' | 'notificationChannels' | 'notificationDeliveries' | 'pruneServerImages' | 'pullServerImage' | 'recentDeployments' | 'removeServerImage' | 'restoreBackup' | 'revokeDeployWebhook' | 'revokeInvite' | 'revokeToken' | 'rollbackPlan' | 'rotateRecoveryCodes' | 'rotateToken' | 'sealAuditCheckpoint' | 'serverDetails' | 'serverImages' | 'servers' | 'serviceDetails' | 'services' | 'serviceStats' | 'serviceStatus' | 'startMfaEnrollment' | 'testNotificationChannel' | 'tokens' | 'triggerBackup' | 'updateAccountSecurityPolicy' | 'updateNotificationChannel' | 'updateServer' | 'verifyAuditTrail' | 'viewer';
