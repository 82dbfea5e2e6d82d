import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import type { RequestContext } from '../../kernel/request-context.js';

/**
 * What a caller without the admin role reads about a failure to reach a server (or, through the
 * health probe, a port behind it): one sentence per step, whatever the cause, so that refused,
 * timed out, unreachable and wrong host key read the same and the runner is no port scanner.
 */
export const GENERIC_FAILURES: Readonly<Record<string, string>> = {
  connect: 'could not connect to the server',
  'http-probe': 'the health check did not succeed',
};

export function seesConnectionDetails(ctx: RequestContext | null | undefined): boolean {
  const role = ctx?.principal?.role;
  return role === 'owner' || role === 'admin';
}

/** The deployment as this caller may read it: reasons of connection steps generic if needed. */
export function withFailuresFor<
  T extends Pick<DeploymentDoc, 'failedStep' | 'failureReason' | 'steps'>,
>(d: T, ctx: RequestContext | null | undefined): T {
  if (seesConnectionDetails(ctx)) return d;
  const generic = d.failedStep ? GENERIC_FAILURES[d.failedStep] : undefined;
  return {
    ...d,
    failureReason: generic && d.failureReason !== null ? generic : d.failureReason,
    steps: d.steps.map((s) =>
      GENERIC_FAILURES[s.step] && s.detail !== null
        ? { ...s, detail: GENERIC_FAILURES[s.step] }
        : s,
    ),
  };
}
