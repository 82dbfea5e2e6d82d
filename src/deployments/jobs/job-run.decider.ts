import { conflict } from '../../common/app-error.js';
import type { PendingEvent } from '../../eventstore/define-event.js';
import type { Decider, EventLike } from '../../storage/decider.js';
import {
  JobRunFailed,
  JobRunSkipped,
  JobRunStarted,
  JobRunSucceeded,
  type JobRunFailure,
} from '../../events/jobs.events.js';

export type JobRunStatus = 'none' | 'running' | 'finished' | 'skipped';

export interface JobRunState {
  status: JobRunStatus;
  jobId: string | null;
  serviceId: string | null;
}

type Started = Parameters<typeof JobRunStarted>[0];
type Skipped = Parameters<typeof JobRunSkipped>[0];

export type JobRunCommand =
  | { kind: 'start'; run: Started }
  | { kind: 'skip'; skip: Skipped }
  | { kind: 'succeed'; runId: string }
  | { kind: 'fail'; runId: string; reason: JobRunFailure; exitCode: number | null; detail: string };

/**
 * Stream `job-run-<runId>`: a run is claimed once (started or skipped), then finishes once.
 * A second scheduler reaching the same scheduled time finds it claimed.
 */
export const jobRunDecider: Decider<JobRunState, JobRunCommand> = {
  initialState: () => ({ status: 'none', jobId: null, serviceId: null }),

  evolve(state, event: EventLike) {
    if (event.type === JobRunStarted.type) {
      const { jobId, serviceId } = JobRunStarted.dataOf(event);
      return { status: 'running', jobId, serviceId };
    }
    if (event.type === JobRunSkipped.type) {
      const { jobId, serviceId } = JobRunSkipped.dataOf(event);
      return { status: 'skipped', jobId, serviceId };
    }
    if (event.type === JobRunSucceeded.type || event.type === JobRunFailed.type) {
      return { ...state, status: 'finished' };
    }
    return state;
  },

  decide(command, state): PendingEvent[] {
    if (command.kind === 'start' || command.kind === 'skip') {
      if (state.status !== 'none') throw conflict('This run is already claimed');
      return [command.kind === 'start' ? JobRunStarted(command.run) : JobRunSkipped(command.skip)];
    }
    if (state.status !== 'running') throw conflict('This run is not running');
    const ids = { runId: command.runId, jobId: state.jobId!, serviceId: state.serviceId! };
    if (command.kind === 'succeed') return [JobRunSucceeded(ids)];
    return [
      JobRunFailed({
        ...ids,
        reason: command.reason,
        exitCode: command.exitCode,
        detail: command.detail,
      }),
    ];
  },
};
