import { alertsProjection } from './alerts.projection.js';
import { apiTokensProjection } from './api-tokens.projection.js';
import { approvalsProjection } from './approvals.projection.js';
import { auditTrailProjection } from './audit-trail.projection.js';
import { backupsProjection } from './backups.projection.js';
import { backupSchedulesProjection } from './backup-schedules.projection.js';
import { backupCopiesProjection } from './backup-copies.projection.js';
import { s3TargetsProjection } from './s3-targets.projection.js';
import { deploymentsProjection } from './deployments.projection.js';
import { deployHooksProjection } from './deploy-hooks.projection.js';
import { drainsProjection } from './drains.projection.js';
import { scheduledJobsProjection } from './scheduled-jobs.projection.js';
import { notificationChannelsProjection } from './notification-channels.projection.js';
import { mfaProjection } from './mfa.projection.js';
import { serversProjection } from './servers.projection.js';
import { edgeCertificatesProjection } from './edge-certificates.projection.js';
import { serverEdgesProjection } from './server-edges.projection.js';
import { servicesProjection } from './services.projection.js';
import { identityProvidersProjection } from './identity-providers.projection.js';
import { invitesProjection } from './invites.projection.js';
import { passwordResetsProjection } from './password-resets.projection.js';
import { projectsProjection } from './projects.projection.js';
import { principalsProjection } from './principals.projection.js';
import { securityPolicyProjection } from './security-policy.projection.js';
import type { Projection } from './projection.js';
import { sessionsProjection } from './sessions.projection.js';
import { userCredentialsProjection } from './user-credentials.projection.js';

/** Every projection the service maintains. Bounded contexts add theirs here. */
export const applicationProjections: Projection[] = [
  principalsProjection,
  apiTokensProjection,
  sessionsProjection,
  userCredentialsProjection,
  mfaProjection,
  securityPolicyProjection,
  identityProvidersProjection,
  passwordResetsProjection,
  invitesProjection,
  projectsProjection,
  serversProjection,
  servicesProjection,
  serverEdgesProjection,
  edgeCertificatesProjection,
  deploymentsProjection,
  approvalsProjection,
  backupsProjection,
  backupSchedulesProjection,
  backupCopiesProjection,
  s3TargetsProjection,
  notificationChannelsProjection,
  deployHooksProjection,
  drainsProjection,
  scheduledJobsProjection,
  alertsProjection,
  auditTrailProjection,
];
