import type { NotificationSubject } from '../events/notifications.events.js';

/**
 * Which event types a channel subscribed to a subject hears of: the one place to add a new
 * event. `BackupFailed` (triggerBackup), `RestoreFailed` (restoreBackup) and
 * `AuditVerificationFailed` (the periodic audit verification) are emitted by their contexts;
 * the certificate events by the edge watch, which reads them back from each server's proxy;
 * `JobRunFailed` by the runner of scheduled jobs; the alert events by the metrics collector.
 */
export const SUBJECT_EVENTS: Record<NotificationSubject, readonly string[]> = {
  'deployment.succeeded': ['DeploymentSucceeded'],
  'deployment.failed': ['DeploymentFailed'],
  'deployment.cancelled': ['DeploymentCancelled'],
  'approval.requested': ['ApprovalRequested'],
  'approval.decided': ['ApprovalGranted', 'ApprovalRejected'],
  'backup.failed': [
    'BackupFailed',
    'RestoreFailed',
    'BackupCopyFailed',
    'BackupCopyCorrupted',
    'BackupRestoreTestFailed',
  ],
  'audit.verification-failed': ['AuditVerificationFailed'],
  'token.expiring': ['TokenExpiryNoticed'],
  'certificate.failed': ['EdgeCertificateFailed'],
  'certificate.expiring': ['EdgeCertificateExpiring'],
  'security.break-glass': ['BreakGlassSignIn'],
  'job.failed': ['JobRunFailed'],
  'alert.raised': ['AlertRaised', 'AlertEscalated'],
  'alert.resolved': ['AlertResolved'],
};

export const NOTIFICATION_SUBJECTS = Object.keys(SUBJECT_EVENTS) as NotificationSubject[];

const SUBJECT_OF_EVENT = new Map<string, NotificationSubject>(
  NOTIFICATION_SUBJECTS.flatMap((subject) =>
    SUBJECT_EVENTS[subject].map((type) => [type, subject] as const),
  ),
);

/** The subject an event type notifies under, or null when no channel can hear of it. */
export function subjectOf(eventType: string): NotificationSubject | null {
  return SUBJECT_OF_EVENT.get(eventType) ?? null;
}
