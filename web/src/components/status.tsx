const LABELS: Record<string, string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Cancelled',
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  expired: 'Expired',
  ok: 'OK',
  degraded: 'Degraded',
  failing: 'Failing',
  healthy: 'Healthy',
  deploying: 'Deploying',
  'never-deployed': 'Never deployed',
  unapproved: 'Host key not approved',
  ready: 'Ready',
  active: 'Active',
  deactivated: 'Deactivated',
  revoked: 'Revoked',
  denied: 'Denied',
  waiting: 'Waiting for approval',
  live: 'Live',
  closing: 'Being torn down',
  delivering: 'Delivering',
  disabled: 'Disabled',
  enabled: 'Enabled',
  delivered: 'Delivered',
  skipped: 'Skipped',
};

/** A status in words with its colour; the word carries the meaning, the colour only helps. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{LABELS[status] ?? status}</span>;
}
