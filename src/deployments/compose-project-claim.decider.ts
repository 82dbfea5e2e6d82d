import { conflict } from '../common/app-error.js';
import { ComposeProjectClaimed, ComposeProjectReleased } from '../events/deployments.events.js';
import type { Decider } from '../storage/decider.js';

export interface ComposeProjectClaimState {
  /** The service whose containers and volumes are named after the project, if any. */
  serviceId: string | null;
}

export type ComposeProjectClaimCommand =
  | { kind: 'claim'; project: string; serviceId: string }
  | { kind: 'release'; project: string; serviceId: string };

/**
 * One compose project name on its own stream. Names and environments are joined with `-` and a
 * `.` becomes `-` (`a-b`/`c`, `a`/`b-c` and `a.b`/`c` are all `a-b-c`): a service claims the name
 * before it is registered, so that two services never run, back up or tear down each other's
 * containers and volumes. Claiming one's own again and releasing what one does not hold change
 * nothing.
 */
export const composeProjectClaimDecider: Decider<
  ComposeProjectClaimState,
  ComposeProjectClaimCommand
> = {
  initialState: () => ({ serviceId: null }),
  evolve(state, event) {
    if (event.type === ComposeProjectClaimed.type)
      return { serviceId: ComposeProjectClaimed.dataOf(event).serviceId };
    if (
      event.type === ComposeProjectReleased.type &&
      ComposeProjectReleased.dataOf(event).serviceId === state.serviceId
    )
      return { serviceId: null };
    return state;
  },
  decide(command, state) {
    const { project, serviceId } = command;
    if (command.kind === 'release')
      return state.serviceId === serviceId ? [ComposeProjectReleased({ project, serviceId })] : [];
    if (state.serviceId === serviceId) return [];
    if (state.serviceId) throw conflict(projectTakenMessage(project), { project });
    return [ComposeProjectClaimed({ project, serviceId })];
  },
};

export const projectTakenMessage = (project: string) =>
  `Another service's containers and volumes are named ${project} (names and environments are joined with -, and . becomes -): choose another name`;
