import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../api/access';
import { mutate, query } from '../api/client';
import { Done } from '../components/fields';
import { Field, FormError } from '../components/form';
import { Loading } from '../components/page';
import { PlanView } from '../components/plan';
import type { Backup } from './backup-types';

/**
 * Restoring a backup: its plan first; then an approval by another person (`requestApproval`,
 * action `restore`); once approved, `restoreBackup` with that approval.
 */
export function Restore({ backup, serviceId }: { backup: Backup; serviceId: string }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const plan = useQuery({
    queryKey: ['backupRestorePlan', backup.id],
    queryFn: () => query('backupRestorePlan', { backupId: backup.id }),
    staleTime: 0,
  });
  const approvals = useQuery({
    queryKey: ['approvalQueue', 'approved'],
    queryFn: () => query('approvalQueue', { status: 'approved', limit: 100 }),
    enabled: can('approvalQueue'),
  });
  const approved = approvals.data?.items.find(
    (a) => a.action === 'restore' && a.payload.backupId === backup.id,
  );
  const ask = useMutation({
    mutationFn: () =>
      mutate('requestApproval', { action: 'restore', serviceId, backupId: backup.id, reason }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['approvalQueue'] }),
  });
  const restore = useMutation({
    mutationFn: (approvalId: string) =>
      mutate('restoreBackup', { backupId: backup.id, approvalId }),
  });
  return (
    <div className="actions">
      {plan.isPending ? (
        <Loading what="the restore plan" />
      ) : plan.isError ? (
        <FormError error={plan.error} />
      ) : (
        <PlanView plan={plan.data} title={`Restore plan: backup of ${backup.takenAt}`} />
      )}
      {approved && can('restoreBackup') ? (
        <button
          type="button"
          className="button danger"
          disabled={restore.isPending || restore.isSuccess}
          onClick={() => restore.mutate(approved.id)}
        >
          Restore now: approved by another person
        </button>
      ) : (
        can('requestApproval') &&
        !ask.data && (
          <form
            aria-label="Ask for approval to restore"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              ask.mutate();
            }}
          >
            <Field
              name="reason"
              label="Why restore (12-280 characters)"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              error={ask.error}
              required
            />
            <button type="submit" className="button primary" disabled={ask.isPending}>
              Ask for approval to restore
            </button>
          </form>
        )
      )}
      <FormError error={ask.error ?? restore.error} fields={['reason']} />
      {ask.data && (
        <Done>
          <p>
            Waiting for approval by another person (request {ask.data.approvalId.slice(0, 8)}); once
            approved, the restore can run from here.
          </p>
        </Done>
      )}
      {restore.data && (
        <Done>
          <p>
            Restore {restore.data.status}
            {restore.data.exitCode !== null && ` (exit code ${restore.data.exitCode})`}.
          </p>
        </Done>
      )}
    </div>
  );
}
