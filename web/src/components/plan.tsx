import type { AnswerOf } from '../api/answers';

type Plan = AnswerOf<'deploymentPlan'>;

const MARK = { ok: '✓', warn: '!', fail: '✗' } as const;

/** A plan as the server computed it: checks, steps, whether an approval is needed. */
export function PlanView({ plan, title }: { plan: Plan; title: string }) {
  return (
    <section className="plan" aria-label={title}>
      <h3>{title}</h3>
      <p className={plan.isReady ? 'match' : 'mismatch'}>
        {plan.isReady ? 'Ready: every check passes.' : 'Not ready: a check fails.'}
        {plan.approvalRequired && ' Needs an approval by another person before it runs.'}
      </p>
      <ul className="checks">
        {plan.preflightChecks.map((c) => (
          <li key={c.check} className={`check-${c.status}`}>
            <span aria-hidden="true">{MARK[c.status]}</span> <strong>{c.check}</strong>{' '}
            <span className="muted">({c.status})</span>: {c.detail}
          </li>
        ))}
      </ul>
      <p className="small">Steps: {plan.steps.join(' → ')}</p>
    </section>
  );
}

/** What a deploy or rollback answered: queued (with the deployment) or waiting for approval. */
export type Launched = AnswerOf<'triggerDeploy'>;

export function launchedText(result: Launched): string {
  return 'deploymentId' in result
    ? 'Queued.'
    : `Waiting for approval by another person (request ${result.approvalId.slice(0, 8)}).`;
}
