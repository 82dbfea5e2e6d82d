import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import type { AnswerOf } from '../api/answers';
import { useCan } from '../api/access';
import { mutate, query } from '../api/client';
import { Done } from '../components/fields';
import { Field, FormError } from '../components/form';
import { launchedText, PlanView } from '../components/plan';

type Details = AnswerOf<'deploymentDetails'>;

/** Cancel a queued deployment, or ask a running one to stop between steps; asks first. */
export function CancelDeployment({ d }: { d: Details }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const cancel = useMutation({
    mutationFn: () => mutate('cancelDeployment', { deploymentId: d.id }),
    onSuccess: () => {
      setAsking(false);
      void queryClient.invalidateQueries({ queryKey: ['deploymentDetails', d.id] });
      void queryClient.invalidateQueries({ queryKey: ['recentDeployments'] });
    },
  });
  const live = d.status === 'queued' || d.status === 'running';
  if (!live || d.cancelRequested || !can('cancelDeployment')) return null;
  return (
    <div className="actions">
      <FormError error={cancel.error} />
      {asking ? (
        <div className="button-row" role="group" aria-label="Cancel the deployment?">
          <span>
            {d.status === 'queued'
              ? 'It leaves the queue at once.'
              : 'It stops after the current step.'}
          </span>
          <button
            type="button"
            className="button danger"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate()}
          >
            Yes, cancel it
          </button>
          <button type="button" className="button" onClick={() => setAsking(false)}>
            Keep it
          </button>
        </div>
      ) : (
        <button type="button" className="button danger" onClick={() => setAsking(true)}>
          Cancel the deployment…
        </button>
      )}
    </div>
  );
}

/** Roll back to a succeeded deployment: its plan first, then the rollback (or an approval). */
export function RollBack({ d }: { d: Details }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const plan = useQuery({
    queryKey: ['rollbackPlan', d.serviceId, d.id],
    queryFn: () => query('rollbackPlan', { serviceId: d.serviceId, targetDeploymentId: d.id }),
    enabled: open,
    staleTime: 0,
  });
  const rollback = useMutation({
    mutationFn: () =>
      mutate('executeRollback', {
        serviceId: d.serviceId,
        targetDeploymentId: d.id,
        ...(reason ? { reason } : {}),
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['recentDeployments'] });
      void queryClient.invalidateQueries({ queryKey: ['approvalQueue'] });
    },
  });
  if (d.status !== 'succeeded' || !can('rollbackPlan') || !can('executeRollback')) return null;
  if (!open) {
    return (
      <div className="actions">
        <button type="button" className="button" onClick={() => setOpen(true)}>
          Roll back to this deployment…
        </button>
      </div>
    );
  }
  return (
    <div className="actions">
      <FormError error={plan.error ?? rollback.error} fields={['reason']} />
      {plan.data && !rollback.data && (
        <>
          <PlanView plan={plan.data} title={`Rollback plan: back to ${d.imageRef}`} />
          <Field
            name="reason"
            label="Reason (optional, 12-280 characters)"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            error={rollback.error}
          />
          <div className="button-row">
            <button
              type="button"
              className="button primary"
              disabled={rollback.isPending || !plan.data.isReady}
              onClick={() => rollback.mutate()}
            >
              {plan.data.approvalRequired ? 'Ask for approval' : 'Roll back'}
            </button>
            <button type="button" className="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </>
      )}
      {rollback.data && (
        <Done>
          <p>
            {launchedText(rollback.data)}{' '}
            {'deploymentId' in rollback.data ? (
              <Link href={`/deployments/${rollback.data.deploymentId}`}>Follow the rollback</Link>
            ) : (
              <Link href="/approvals">See the approvals</Link>
            )}
          </p>
        </Done>
      )}
    </div>
  );
}
