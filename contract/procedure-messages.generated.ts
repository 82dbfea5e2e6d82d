// Generated from the @Procedure declarations by `npm run contract:generate`: do not edit.
// `npm run contract:check` (part of `npm test`) fails when this file and the code differ.
import type { CreateAgent } from '../src/access/commands/create-agent.js';
import type { CreateToken } from '../src/access/commands/create-token.js';
import type { GenerateAgentToken } from '../src/access/commands/generate-agent-token.js';
import type { InvalidatePrincipal } from '../src/access/commands/invalidate-principal.js';
import type { RevokeToken } from '../src/access/commands/revoke-token.js';
import type { RotateToken } from '../src/access/commands/rotate-token.js';
import type { Agents } from '../src/access/queries/agents.js';
import type { Tokens } from '../src/access/queries/tokens.js';
import type { Viewer } from '../src/access/queries/viewer.js';
import type { TriggerDeploy } from '../src/deployments/commands/trigger-deploy.js';
import type { Health } from '../src/health/health.handler.js';
import type { ChangeUserRole } from '../src/identity/commands/change-user-role.js';
import type { DeactivateUser } from '../src/identity/commands/deactivate-user.js';
import type { InviteMember } from '../src/identity/invites/invite-member.js';
import type { Invites } from '../src/identity/invites/invites.js';
import type { RevokeInvite } from '../src/identity/invites/revoke-invite.js';
import type { ConfirmMfaEnrollment } from '../src/identity/mfa/confirm-mfa-enrollment.js';
import type { DisableMfa } from '../src/identity/mfa/disable-mfa.js';
import type { RotateRecoveryCodes } from '../src/identity/mfa/rotate-recovery-codes.js';
import type { StartMfaEnrollment } from '../src/identity/mfa/start-mfa-enrollment.js';
import type { Members } from '../src/identity/queries/members.js';
import type { AccountSecurityStatus } from '../src/security/account-security-status.js';
import type { UpdateAccountSecurityPolicy } from '../src/security/update-account-security-policy.js';

/** Each procedure’s message: its input and its answer, as declared. */
export interface ProcedureMessages {
  accountSecurityStatus: AccountSecurityStatus;
  agents: Agents;
  changeUserRole: ChangeUserRole;
  confirmMfaEnrollment: ConfirmMfaEnrollment;
  createAgent: CreateAgent;
  createToken: CreateToken;
  deactivateUser: DeactivateUser;
  disableMfa: DisableMfa;
  generateAgentToken: GenerateAgentToken;
  health: Health;
  invalidatePrincipal: InvalidatePrincipal;
  inviteMember: InviteMember;
  invites: Invites;
  members: Members;
  revokeInvite: RevokeInvite;
  revokeToken: RevokeToken;
  rotateRecoveryCodes: RotateRecoveryCodes;
  rotateToken: RotateToken;
  startMfaEnrollment: StartMfaEnrollment;
  tokens: Tokens;
  triggerDeploy: TriggerDeploy;
  updateAccountSecurityPolicy: UpdateAccountSecurityPolicy;
  viewer: Viewer;
}

/** Procedures still declared on methods (see web/src/api/answers.ts). */
export type MethodDeclared = 'approvalQueue' | 'approveRequest' | 'approveServerHostKey' | 'archiveService' | 'auditTrail' | 'backupRestorePlan' | 'backups' | 'cancelDeployment' | 'checkServer' | 'composeDeploymentPlan' | 'configDiff' | 'createDeployWebhook' | 'createNotificationChannel' | 'decommissionServer' | 'deliveryMetrics' | 'deploymentDetails' | 'deploymentLogs' | 'deploymentPlan' | 'deployWebhooks' | 'eraseSubjectData' | 'executeRollback' | 'infrastructureInventory' | 'notificationChannels' | 'notificationDeliveries' | 'pruneServerImages' | 'pullServerImage' | 'recentDeployments' | 'recordBackup' | 'registerServer' | 'registerService' | 'rejectRequest' | 'removeServerImage' | 'requestApproval' | 'restoreBackup' | 'revokeDeployWebhook' | 'rollbackPlan' | 'scanServerHostKey' | 'sealAuditCheckpoint' | 'serverDetails' | 'serverImages' | 'servers' | 'serviceDetails' | 'services' | 'serviceStats' | 'serviceStatus' | 'setServerComposePolicy' | 'testNotificationChannel' | 'triggerBackup' | 'updateNotificationChannel' | 'updateServer' | 'updateService' | 'verifyAuditTrail';
