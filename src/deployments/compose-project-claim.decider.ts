import { conflict } from '../common/app-error.js';
import { ComposeProjectClaimed, ComposeProjectReleased } from '../events/deployments.events.js';
import { serviceClaimDecider } from './claims/service-claim.decider.js';

export const projectTakenMessage = (project: string) =>
  `Another service's containers and volumes are named ${project} (names and environments are joined with -, and . becomes -): choose another name`;

/**
 * One compose project name on its own stream. Names and environments are joined with `-` and a
 * `.` becomes `-` (`a-b`/`c`, `a`/`b-c` and `a.b`/`c` are all `a-b-c`): a service claims the name
 * before it is registered, so that two services never run, back up or tear down each other's
 * containers and volumes.
 */
export const composeProjectClaimDecider = serviceClaimDecider(
  'project',
  ComposeProjectClaimed,
  ComposeProjectReleased,
  (project) => conflict(projectTakenMessage(project), { project }),
);
