import { describe, expect, it } from '@jest/globals';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import {
  gaplessServices,
  gaplessSteps,
  newContainers,
  replicasOf,
  upTargets,
} from './gapless-steps.js';

const deployment = (compose: string, healthCheckUrl: string | null = null) =>
  ({
    snapshot: {
      compose,
      healthCheckUrl,
      routes: [
        { domain: 'a.example.com', pathPrefix: null, service: 'web', port: 8080 },
        { domain: 'b.example.com', pathPrefix: null, service: 'admin', port: 80 },
      ],
    },
  }) as unknown as DeploymentDoc;

const stack = `services:
  web: {image: "a/web:1"}
  admin: {image: "a/admin:1", ports: ["9000:80"]}
  db: {image: "postgres:16"}
`;

describe('gapless steps', () => {
  it('go beside the running version only for routed services without host ports', () => {
    expect(gaplessServices(deployment(stack))).toEqual(['web']);
  });

  it('sync the proxy, start, check, probe, switch, drain, then retire', () => {
    const { before, after } = gaplessSteps(deployment(stack), '/srv/p/d1', 'p', {
      stepTimeoutSeconds: 30,
    });
    expect(before.map((s) => s.name)).toEqual([
      'edge-sync',
      'start-new',
      'health-new',
      'probe-new',
      'switch',
      'drain',
    ]);
    expect(after.map((s) => s.name)).toEqual(['retire']);
    const start = before[1] as { args: string[]; undo?: string[] };
    expect(start.args.slice(3)).toEqual(['slipway', '/srv/p/d1', 'p', 'slipway-edge', 'web=0']);
    expect(start.undo?.slice(3)).toEqual(['slipway', '/srv/p/d1', 'p', 'web']);
    const probe = before[3] as { args: string[] };
    // Any answer below 500 on `/` without a health check URL; service, port and routed domain.
    expect(probe.args.slice(3)).toEqual([
      'slipway',
      '30',
      '/srv/p/d1',
      'slipway-edge',
      '/',
      '0',
      'web',
      '8080',
      'a.example.com',
    ]);
  });

  it('probe the health check URL’s path strictly when the service has one', () => {
    const { before } = gaplessSteps(
      deployment(stack, 'https://a.example.com/healthz?deep=1'),
      '/srv/p/d1',
      'p',
      { stepTimeoutSeconds: 30 },
    );
    expect((before[3] as { args: string[] }).args.slice(7, 9)).toEqual(['/healthz?deep=1', '1']);
  });

  it('only sync the proxy when nothing can go beside its running version', () => {
    const { before, after } = gaplessSteps(
      deployment('services:\n  admin: {image: "a/admin:1", ports: ["9000:80"]}\n'),
      '/d',
      'p',
      { stepTimeoutSeconds: 30 },
    );
    expect([before.map((s) => s.name), after]).toEqual([['edge-sync'], []]);
  });

  it('start as many new containers as the new definition asks for, else as many as run', () => {
    const replicated = `services:
  web: {image: "a/web:1", deploy: {replicas: 3}}
  api: {image: "a/api:1", scale: 2}
  db: {image: "postgres:16"}
`;
    expect(['web', 'api', 'db', 'nope'].map((s) => replicasOf(deployment(replicated), s))).toEqual([
      3, 2, 0, 0,
    ]);
    const { before } = gaplessSteps(deployment(replicated), '/d', 'p', {
      stepTimeoutSeconds: 30,
    });
    expect((before[1] as { args: string[] }).args.slice(7)).toEqual(['web=3']);
  });

  it('leave the gapless services out of the final compose up, so none is recreated', () => {
    expect(upTargets(deployment(stack), [])).toEqual([]);
    expect(upTargets(deployment(stack), ['web'])).toEqual(['--no-deps', 'admin', 'db']);
    expect(upTargets(deployment(stack), ['web', 'admin', 'db'])).toEqual(['--no-recreate']);
  });

  it('read the new containers start-new printed, per service', () => {
    expect(
      newContainers([
        ' Container p-web-2  Started',
        'new web p-web-2 172.18.0.5',
        'new web p-web-3 172.18.0.6',
        'new api p-api-2',
      ]),
    ).toEqual([
      {
        service: 'web',
        containers: ['p-web-2', 'p-web-3'],
        addresses: ['172.18.0.5', '172.18.0.6'],
      },
      { service: 'api', containers: ['p-api-2'] },
    ]);
  });
});
