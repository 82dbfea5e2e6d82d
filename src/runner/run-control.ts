import { systemContext, type RequestContext } from '../kernel/request-context.js';

/** The context a run's events are written in: the runner, for this deployment. */
export function runnerContext(deploymentId: string): RequestContext {
  return systemContext(`runner:${deploymentId}`, `deployment:${deploymentId}`);
}

/** Why a run stopped early: a cancellation asked for by a user, or the watchdog. */
export class RunControl {
  readonly abort = new AbortController();
  cancelReason: string | null = null;
  watchdogReason: string | null = null;
  /** Past the edge proxy's switch: the new version serves, so a cancel no longer stops the run. */
  committed = false;
}
