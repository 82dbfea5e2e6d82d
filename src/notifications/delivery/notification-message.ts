import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import type { RecordedEvent } from '../../eventstore/event-store.port.js';

/** What the deployment events say about their deployment: never its snapshot (sealed env). */
export function deploymentSummary(doc: DeploymentDoc | null): Record<string, unknown> | null {
  if (!doc) return null;
  return {
    deploymentId: doc.id,
    serviceId: doc.serviceId,
    serviceName: doc.serviceName,
    environment: doc.environment,
    imageRef: doc.imageRef,
    status: doc.status,
    trigger: doc.trigger,
  };
}

const DATA_FIELDS = [
  'deploymentId',
  'serviceId',
  'imageRef',
  'reason',
  'step',
  'approvalId',
  'action',
  'status',
  'note',
  'expiresAt',
  'tokenId',
  'tokenName',
  'principalId',
  'backupId',
  'testId',
  'channelId',
  'problem',
  'firstBadPosition',
  'serverId',
  'domain',
  'notAfter',
  'daysLeft',
  'failedAt',
  'userId',
  'jobId',
  'runId',
  'exitCode',
  'detail',
  'expected',
  'actual',
  'alertId',
  'kind',
  'severity',
  'container',
  'metric',
  'value',
  'threshold',
  'volume',
];

/**
 * The JSON a channel receives: subject, the event (type, id, position, time) and its data
 * limited to known, harmless fields, plus the deployment it concerns when there is one.
 */
export function notificationPayload(
  deliveryId: string,
  subject: string,
  event: RecordedEvent,
  deployment: Record<string, unknown> | null,
): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const key of DATA_FIELDS) {
    const value = event.data[key];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      data[key] = typeof value === 'string' ? value.slice(0, 1000) : value;
  }
  return {
    deliveryId,
    subject,
    event: {
      type: event.type,
      id: event.id,
      position: Number(event.position),
      at: event.recordedAt,
    },
    data,
    deployment,
  };
}

const TITLES: Record<string, string> = {
  'deployment.succeeded': 'Deployment succeeded',
  'deployment.failed': 'Deployment failed',
  'deployment.cancelled': 'Deployment cancelled',
  'approval.requested': 'Approval requested',
  'approval.decided': 'Approval decided',
  'backup.failed': 'Backup, its copy or restore failed',
  'audit.verification-failed': 'Audit verification failed',
  'token.expiring': 'API token expires within 7 days',
  'certificate.failed': 'Certificate could not be obtained',
  'certificate.expiring': 'Certificate expires soon',
  'security.break-glass': 'An owner signed in with password while single sign-on is required',
  'job.failed': 'A scheduled job run failed',
  'alert.raised': 'Alert',
  'alert.resolved': 'Alert resolved',
  test: 'Test notification',
};

/** One line for people (Slack text, mail subject). */
export function summaryLine(payload: Record<string, unknown>): string {
  const subject = String(payload.subject);
  const title = TITLES[subject] ?? subject;
  const d = (payload.deployment ?? {}) as Record<string, unknown>;
  const data = (payload.data ?? {}) as Record<string, unknown>;
  if (subject.startsWith('alert.')) {
    const severity = typeof data.severity === 'string' ? ` (${data.severity})` : '';
    return `[Slipway] ${title}${severity}: ${String(data.detail)}`;
  }
  const what = d.serviceName
    ? `${String(d.serviceName)} (${String(d.environment)}) ${String(d.imageRef)}`
    : [data.action, data.imageRef, data.tokenName, data.approvalId, data.problem, data.domain]
        .filter((v) => typeof v === 'string')
        .join(' ');
  return `[Slipway] ${title}${what ? `: ${what}` : ''}`;
}
