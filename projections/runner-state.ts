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
