import type { CollectionSpec, Doc } from '../../readstore/read-store.port.js';

/** A deployment whose output a drain is following. */
export interface OpenDeployment {
  deploymentId: string;
  serviceId: string | null;
  /**
   * A scheduled job's run from that deployment, whose output is kept under its run id; absent:
   * the deployment's own output.
   */
  jobRun?: { runId: string; jobId: string };
  /** The last output line shipped. */
  afterLine: number;
  /** When the deployment ended (its output is followed a little longer), or null. */
  endedAt: string | null;
}

/**
 * `drain_state`: what each drain (id: its drain id) has delivered, in the primary store: it is
 * derived from no event, and rebuilding the read models must not send everything again.
 */
export interface DrainStateDoc extends Doc {
  /** The drain's `fromPosition` this state belongs to (a drain made anew starts afresh). */
  fromPosition: number;
  /** Global position of the last event shipped (or passed over, for the logs alone). */
  position: number;
  open: OpenDeployment[];
  /** Records delivered since the drain was made. */
  delivered: number;
  lastDeliveredAt: string | null;
  /** Failed attempts since the last delivery. */
  failures: number;
  lastError: string | null;
  lastFailureAt: string | null;
  /** Not before this time (a failure's back-off); null: whenever there is something to ship. */
  nextAttemptAt: string | null;
}

export const DRAIN_STATE: CollectionSpec = { name: 'drain_state' };

/** The state of a drain that has shipped nothing yet. */
export function freshState(drainId: string, fromPosition: number): DrainStateDoc {
  return {
    id: drainId,
    fromPosition,
    position: fromPosition,
    open: [],
    delivered: 0,
    lastDeliveredAt: null,
    failures: 0,
    lastError: null,
    lastFailureAt: null,
    nextAttemptAt: null,
  };
}

/** After a failure: `baseMs` (1 s by default), doubling, at most 5 minutes between attempts. */
export function backOffMs(baseMs: number, failures: number): number {
  return Math.min(baseMs * 2 ** Math.min(failures - 1, 20), 300_000);
}
