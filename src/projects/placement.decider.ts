import { notFound } from '../common/app-error.js';
import { ResourceMovedToProject } from '../events/projects.events.js';
import type { Decider, EventLike } from '../storage/decider.js';

export interface PlacementState {
  /** The project of the last move; null: still where it was registered. */
  movedTo: string | null;
}

export interface MoveToProject {
  kind: 'service' | 'server';
  resourceId: string;
  to: string;
  /** Facts loaded by the handler: where the resource was registered, and that `to` exists. */
  registeredIn: string;
  targetExists: boolean;
}

/**
 * Stream `placement-<kind>-<id>`: the moves of one service or server between projects, taken
 * one at a time (expected revision). Where it was registered is its registration's `projectId`.
 */
export const placementDecider: Decider<PlacementState, MoveToProject> = {
  initialState: () => ({ movedTo: null }),

  evolve: (state, event: EventLike) =>
    event.type === ResourceMovedToProject.type
      ? { movedTo: ResourceMovedToProject.dataOf(event).to }
      : state,

  decide(command, state) {
    if (!command.targetExists) throw notFound('No such project');
    const from = state.movedTo ?? command.registeredIn;
    if (from === command.to) return [];
    return [
      ResourceMovedToProject({
        kind: command.kind,
        resourceId: command.resourceId,
        from,
        to: command.to,
      }),
    ];
  },
};
