import { describe, expect, it } from '@jest/globals';
import { ComposeProjectClaimed, ComposeProjectReleased } from '../events/deployments.events.js';
import { given } from '../storage/testing/given.js';
import { composeProjectClaimDecider as projects } from './compose-project-claim.decider.js';
import { composeProject } from './compose-project.js';

const project = 'a-b-c';
const claim = (serviceId: string) => ({ kind: 'claim' as const, project, serviceId });
const release = (serviceId: string) => ({ kind: 'release' as const, project, serviceId });

describe('compose project claim decider', () => {
  it('maps different names and environments to one project: hence the claim', () => {
    expect(
      new Set([composeProject('a-b', 'c'), composeProject('a', 'b-c'), composeProject('a.b', 'c')]),
    ).toEqual(new Set([project]));
  });

  it('Given nothing, When a service claims a project, Then it holds it', () => {
    given(projects)
      .when(claim('s1'))
      .then(ComposeProjectClaimed({ project, serviceId: 's1' }));
  });

  it('Given a holder, When another service claims it, Then it is refused', () => {
    given(projects, ComposeProjectClaimed({ project, serviceId: 's1' }))
      .when(claim('s2'))
      .thenRefused('CONFLICT', /containers and volumes are named a-b-c/);
  });

  it('Given a holder, When it claims again or another releases, Then nothing changes', () => {
    given(projects, ComposeProjectClaimed({ project, serviceId: 's1' }))
      .when(claim('s1'))
      .thenNothing();
    given(projects, ComposeProjectClaimed({ project, serviceId: 's1' }))
      .when(release('s2'))
      .thenNothing();
  });

  it('Given a claim taken back, When another service claims, Then it gets it', () => {
    given(
      projects,
      ComposeProjectClaimed({ project, serviceId: 's1' }),
      ComposeProjectReleased({ project, serviceId: 's1' }),
    )
      .when(claim('s2'))
      .then(ComposeProjectClaimed({ project, serviceId: 's2' }));
  });
});
