import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { mutate, query } from '../api/client';
import { Done } from '../components/fields';
import { Field, FormError, SubmitButton } from '../components/form';
import { launchedText, PlanView, type Launched } from '../components/plan';

/**
 * Deploying a tag: first the plan (checks, steps, approval), computed by the server without side
 * effects; only then the Deploy button, for exactly the tag that was planned.
 */
export function DeployPanel({
  serviceId,
  serviceName,
  repository,
}: {
  serviceId: string;
  serviceName: string;
  repository: string;
}) {
  const queryClient = useQueryClient();
  const [tag, setTag] = useState('');
  const [reason, setReason] = useState('');
  const [planned, setPlanned] = useState<string | null>(null);
  const imageTag = tag.includes(':') || tag.includes('@') ? tag : `${repository}:${tag}`;
  const plan = useQuery({
    queryKey: ['deploymentPlan', serviceId, planned],
    queryFn: () => query('deploymentPlan', { serviceId, imageTag: planned! }),
    enabled: planned !== null,
    staleTime: 0,
  });
  const deploy = useMutation({
    mutationFn: (): Promise<Launched> =>
      mutate('triggerDeploy', { serviceId, imageTag: planned!, ...(reason ? { reason } : {}) }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['recentDeployments'] });
      void queryClient.invalidateQueries({ queryKey: ['approvalQueue'] });
      void queryClient.invalidateQueries({ queryKey: ['infrastructureInventory'] });
    },
  });
  const showPlan = (e: FormEvent) => {
    e.preventDefault();
    deploy.reset();
    setPlanned(imageTag);
  };
  return (
    <div className="deploy-panel">
      <form onSubmit={showPlan} aria-label={`Deploy ${serviceName}`} noValidate>
        <Field
          name="imageTag"
          label="Image tag"
          value={tag}
          placeholder="1.4.2"
          onChange={(e) => {
            setTag(e.target.value);
            setPlanned(null);
          }}
          hint={`A tag of ${repository}, or a full image reference.`}
          error={plan.error ?? deploy.error}
          required
        />
        <Field
          name="reason"
          label="Reason (optional, 12-280 characters)"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          error={deploy.error}
        />
        <SubmitButton pending={plan.isFetching}>Show the plan</SubmitButton>
      </form>
      <FormError error={plan.error ?? deploy.error} fields={['imageTag', 'reason']} />
      {plan.data && planned && !deploy.data && (
        <>
          <PlanView plan={plan.data} title={`Plan for ${planned}`} />
          <div className="button-row">
            <button
              type="button"
              className="button primary"
              disabled={deploy.isPending || !plan.data.isReady}
              onClick={() => deploy.mutate()}
            >
              {plan.data.approvalRequired ? 'Ask for approval' : `Deploy ${planned}`}
            </button>
            <button type="button" className="button" onClick={() => setPlanned(null)}>
              Cancel
            </button>
          </div>
        </>
      )}
      {deploy.data && (
        <Done>
          <p>
            {launchedText(deploy.data)}{' '}
            {'deploymentId' in deploy.data ? (
              <Link href={`/deployments/${deploy.data.deploymentId}`}>Follow the deployment</Link>
            ) : (
              <Link href="/approvals">See the approvals</Link>
            )}
          </p>
        </Done>
      )}
    </div>
  );
}
