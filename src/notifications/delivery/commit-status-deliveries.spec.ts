import { describe, expect, it } from '@jest/globals';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { commitStatusOf } from './commit-status-deliveries.js';

const REPO = 'git@github.com:acme/api.git';
const deployment = (git: boolean) =>
  ({
    id: 'd1',
    serviceId: 's1',
    serviceName: 'api',
    environment: 'production',
    snapshot: {
      git: git
        ? { repository: REPO, commit: 'c'.repeat(40), ref: null, author: null, message: null }
        : null,
    },
  }) as unknown as DeploymentDoc;
const service = (reports: boolean, repository = REPO) =>
  ({
    id: 's1',
    gitSource: {
      repository,
      commitStatus: reports ? { provider: 'github', apiUrl: 'https://api.github.com' } : null,
    },
  }) as unknown as ServiceDoc;

describe('the commit status a deployment event reports', () => {
  it('given a deployment of a commit, when it succeeds, then success linking to its page', () => {
    expect(
      commitStatusOf('DeploymentSucceeded', deployment(true), service(true), 'https://s.example'),
    ).toEqual({
      serviceId: 's1',
      deploymentId: 'd1',
      commit: 'c'.repeat(40),
      state: 'success',
      description: 'Deployed',
      targetUrl: 'https://s.example/deployments/d1',
      context: 'slipway/api@production',
    });
  });

  it('maps queued and started to pending, failed to failure, cancelled to error', () => {
    const state = (type: string) =>
      commitStatusOf(type, deployment(true), service(true), 'https://s.example')?.state;
    expect(
      ['DeploymentTriggered', 'DeploymentStarted', 'DeploymentFailed', 'DeploymentCancelled'].map(
        state,
      ),
    ).toEqual(['pending', 'pending', 'failure', 'error']);
  });

  it('reports nothing for an image deployment, a source without statuses, another repository or another event', () => {
    const url = 'https://s.example';
    expect(commitStatusOf('DeploymentSucceeded', deployment(false), service(true), url)).toBeNull();
    expect(commitStatusOf('DeploymentSucceeded', deployment(true), service(false), url)).toBeNull();
    expect(
      commitStatusOf('DeploymentSucceeded', deployment(true), service(true, 'git@x.com:a/b'), url),
    ).toBeNull();
    expect(
      commitStatusOf('DeploymentStepStarted', deployment(true), service(true), url),
    ).toBeNull();
  });
});
