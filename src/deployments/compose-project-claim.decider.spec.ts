import { describe, expect, it } from '@jest/globals';
import { ComposeProjectClaimed } from '../events/deployments.events.js';
import { given } from '../storage/testing/given.js';
import { composeProjectClaimDecider as projects } from './compose-project-claim.decider.js';
import { composeProject } from './compose-project.js';

// How a claim is held, refused and released is the shared claim's (domain-claim.decider.spec).
describe('compose project claim decider', () => {
  const project = 'a-b-c';

  it('maps different names and environments to one project: hence the claim', () => {
    const joined = [
      composeProject('a-b', 'c'),
      composeProject('a', 'b-c'),
      composeProject('a.b', 'c'),
    ];
    expect(new Set(joined)).toEqual(new Set([project]));
  });

  it('Given a holder, When another service claims it, Then it is refused, naming the project', () => {
    given(projects, ComposeProjectClaimed({ project, serviceId: 's1' }))
      .when({ kind: 'claim', name: project, serviceId: 's2' })
      .thenRefused('CONFLICT', /containers and volumes are named a-b-c/);
    given(projects)
      .when({ kind: 'claim', name: project, serviceId: 's1' })
      .then(ComposeProjectClaimed({ project, serviceId: 's1' }));
  });
});
