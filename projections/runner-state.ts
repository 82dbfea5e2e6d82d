import { AppError } from '../src/common/app-error.js';
import type { Projection } from './projection.js';

/** What the projection runner knows of one projection. */
export interface RunnerState {
  projection: Projection;
  position: number;
  lastError: string | null;
  retryAt: number;
  retryDelayMs: number;
  /** Moved past events it has no handler for since its checkpoint was last saved. */
  unsaved: boolean;
  /** With leases: the epoch under which it last adopted the shared checkpoint (LeaseFollower). */
  adoptedEpoch: number | null;
  /** With leases: the newer version whose lease stopped this replica applying it. */
  supersededBy: number | null;
}

/** What applying a batch reports back to the runner. */
export interface BatchHooks {
  /** Its events up to `position` are committed; `skipped`: none had a handler, none written. */
  applied(state: RunnerState, position: number, skipped: boolean): void;
  failed(state: RunnerState, error: unknown): void;
  /** After each commit: who waits may be answered now. */
  committed(): void;
}

/** Its events up to `position` are committed; `skipped`: none had a handler, none written. */
export function markApplied(
  state: RunnerState,
  position: number,
  skipped: boolean,
  firstRetryDelayMs: number,
): void {
  state.position = position;
  if (skipped) {
    state.unsaved = true;
    return;
  }
  state.unsaved = false;
  state.lastError = null;
  state.retryDelayMs = firstRetryDelayMs;
}

/** Applying failed: retried after a delay that doubles up to 30 s. */
export function markFailed(state: RunnerState, error: unknown): void {
  state.lastError = error instanceof Error ? error.message : String(error);
  state.retryAt = Date.now() + state.retryDelayMs;
  state.retryDelayMs = Math.min(state.retryDelayMs * 2, 30_000);
}

/** What a wait for a projection that a newer version applies now is refused with. */
export function supersededError(state: RunnerState): AppError {
  const { name, version } = state.projection;
  return new AppError(
    'SERVICE_UNAVAILABLE',
    `This replica runs an older version of read model ${name} ` +
      `(${version}, superseded by ${state.supersededBy}); retry through an upgraded replica`,
    { projection: name, version, supersededBy: state.supersededBy },
  );
}

/** The first superseded projection among `names` (all when null). */
export function supersededAmong(
  states: Iterable<RunnerState>,
  names: Set<string> | null,
): RunnerState | null {
  for (const state of states) {
    if (state.supersededBy !== null && (!names || names.has(state.projection.name))) return state;
  }
  return null;
}

/** One state per projection, at position 0; a projection or collection named twice is refused. */
export function initialStates(
  projections: Projection[],
  retryDelayMs: number,
): Map<string, RunnerState> {
  const states = new Map<string, RunnerState>();
  const owners = new Map<string, string>();
  for (const projection of projections) {
    if (states.has(projection.name)) {
      throw new Error(`projection ${projection.name} is registered twice`);
    }
    for (const { name } of projection.collections) {
      const owner = owners.get(name);
      if (owner) throw new Error(`collection ${name} belongs to ${owner} and ${projection.name}`);
      owners.set(name, projection.name);
    }
    states.set(projection.name, {
      projection,
      position: 0,
      lastError: null,
      retryAt: 0,
      retryDelayMs,
      unsaved: false,
      adoptedEpoch: null,
      supersededBy: null,
    });
  }
  return states;
}

export interface ProjectionStatus {
  name: string;
  version: number;
  position: number;
  status: 'running' | 'failing' | 'superseded';
  lastError: string | null;
  /** With leases: the newer version that applies this projection now (this replica stopped). */
  supersededBy?: number;
}

export function statusOf(s: RunnerState): ProjectionStatus {
  const common = { name: s.projection.name, version: s.projection.version, position: s.position };
  if (s.supersededBy !== null) {
    return {
      ...common,
      status: 'superseded',
      lastError: `superseded by version ${s.supersededBy}`,
      supersededBy: s.supersededBy,
    };
  }
  return { ...common, status: s.lastError ? 'failing' : 'running', lastError: s.lastError };
}
