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
import type { CreateDeployWebhook } from '../src/deployments/hooks/create-deploy-webhook.js';
import type { DeployWebhooks } from '../src/deployments/hooks/deploy-webhooks.js';
import type { RevokeDeployWebhook } from '../src/deployments/hooks/revoke-deploy-webhook.js';
import type { DecommissionServer } from '../src/deployments/lifecycle/decommission-server.js';
import type { UpdateServer } from '../src/deployments/lifecycle/update-server.js';
import type { BackupRestorePlan } from '../src/deployments/planning/backup-restore-plan.js';
import type { ComposeDeploymentPlan } from '../src/deployments/planning/compose-deployment-plan.js';
import type { ConfigDiff } from '../src/deployments/planning/config-diff.js';
import type { DeploymentPlan } from '../src/deployments/planning/deployment-plan.js';
import type { RollbackPlan } from '../src/deployments/planning/rollback-plan.js';
import type { ApprovalQueue } from '../src/deployments/queries/approval-queue.js';
import type { Backups } from '../src/deployments/queries/backups.js';
import type { DeliveryMetrics } from '../src/deployments/queries/delivery-metrics.js';
import type { DeploymentDetails } from '../src/deployments/queries/deployment-details.js';
import type { DeploymentLogs } from '../src/deployments/queries/deployment-logs.js';
import type { InfrastructureInventory } from '../src/deployments/queries/infrastructure-inventory.js';
import type { RecentDeployments } from '../src/deployments/queries/recent-deployments.js';
import type { ServerDetails } from '../src/deployments/queries/server-details.js';
import type { Servers } from '../src/deployments/queries/servers.js';
import type { ServiceDetails } from '../src/deployments/queries/service-details.js';
import type { Services } from '../src/deployments/queries/services.js';
import type { Health } from '../src/health/health.handler.js';

/** Each procedure’s message: its input and its answer, as declared. */
export interface ProcedureMessages {
  approvalQueue: ApprovalQueue;
  approveRequest: ApproveRequest;
  approveServerHostKey: ApproveServerHostKey;
  backupRestorePlan: BackupRestorePlan;
  backups: Backups;
  cancelDeployment: CancelDeployment;
  checkServer: CheckServer;
  composeDeploymentPlan: ComposeDeploymentPlan;
  configDiff: ConfigDiff;
  createDeployWebhook: CreateDeployWebhook;
  decommissionServer: DecommissionServer;
  deliveryMetrics: DeliveryMetrics;
  deploymentDetails: DeploymentDetails;
  deploymentLogs: DeploymentLogs;
  deploymentPlan: DeploymentPlan;
  deployWebhooks: DeployWebhooks;
  executeRollback: ExecuteRollback;
  health: Health;
  infrastructureInventory: InfrastructureInventory;
  recentDeployments: RecentDeployments;
  recordBackup: RecordBackup;
  registerServer: RegisterServer;
  registerService: RegisterService;
  rejectRequest: RejectRequest;
  requestApproval: RequestApproval;
  revokeDeployWebhook: RevokeDeployWebhook;
  rollbackPlan: RollbackPlan;
  scanServerHostKey: ScanServerHostKey;
  serverDetails: ServerDetails;
  servers: Servers;
  serviceDetails: ServiceDetails;
  services: Services;
  setServerComposePolicy: SetServerComposePolicy;
  triggerDeploy: TriggerDeploy;
  updateServer: UpdateServer;
  updateService: UpdateService;
}

/** Procedures still declared on methods (see web/src/api/answers.ts). */
export type MethodDeclared = 'accountSecurityStatus' | 'agents' | 'archiveService' | 'auditTrail' | 'changeUserRole' | 'confirmMfaEnrollment' | 'createAgent' | 'createNotificationChannel' | 'createToken' | 'deactivateUser' | 'disableMfa' | 'eraseSubjectData' | 'generateAgentToken' | 'invalidatePrincipal' | 'inviteMember' | 'invites' | 'members' | 'notificationChannels' | 'notificationDeliveries' | 'pruneServerImages' | 'pullServerImage' | 'removeServerImage' | 'restoreBackup' | 'revokeInvite' | 'revokeToken' | 'rotateRecoveryCodes' | 'rotateToken' | 'sealAuditCheckpoint' | 'serverImages' | 'serviceStats' | 'serviceStatus' | 'startMfaEnrollment' | 'testNotificationChannel' | 'tokens' | 'triggerBackup' | 'updateAccountSecurityPolicy' | 'updateNotificationChannel' | 'verifyAuditTrail' | 'viewer';
