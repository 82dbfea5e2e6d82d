import { describe, expect, it } from '@jest/globals';
import { decideFrom, type EventLike } from '../storage/decider.js';
import {
  DeploymentCancellationRequested,
  DeploymentCancelled,
  DeploymentFailed,
  DeploymentStarted,
  DeploymentStepStarted,
  DeploymentSucceeded,
  DeploymentTriggered,
  IdempotencyKeyClaimed,
} from '../events/deployments.events.js';
import { ServiceDeploymentsClosed } from '../events/lifecycle.events.js';
import { idempotencyClaimDecider as claims } from './idempotency-claim.decider.js';
import {
  serviceDeploymentsDecider as queue,
  triggerEventId,
} from './service-deployments.decider.js';

const requester = {
  principalId: 'p1',
  kind: 'user',
  role: 'operator',
  authMethod: 'session',
  tokenId: null,
};
const snapshot = {
  serviceName: 'api',
  environment: 'production',
  serverId: 's1',
  imageRef: 'ghcr.io/acme/api:1',
  compose: '',
  env: [],
  healthCheckUrl: null,
};
const trigger = (
  deploymentId: string,
  extra: Partial<Parameters<typeof DeploymentTriggered>[0]> = {},
) => ({
  deploymentId,
  serviceId: 'svc',
  imageRef: 'ghcr.io/acme/api:1',
  trigger: 'session' as const,
  requestedBy: requester,
  snapshot,
  rollbackOf: null,
  approvalId: null,
  idempotencyKey: null,
  inputDigest: null,
  ...extra,
});
const triggered = (id: string, sequence: number, extra = {}) => ({
  ...DeploymentTriggered({ ...trigger(id, extra), sequence }),
  id: triggerEventId(id),
});
const started = (id: string) => DeploymentStarted({ deploymentId: id, runnerId: 'r' });
const succeeded = (id: string) =>
  DeploymentSucceeded({ deploymentId: id, serviceId: 'svc', imageRef: 'x:1', imageDigest: null });
const fold = (events: EventLike[]) => events.reduce(queue.evolve, queue.initialState());

describe('service deployments decider (the state machine)', () => {
  it('numbers triggers in FIFO order, with an event id fixed by the deployment id', () => {
    const [event] = decideFrom(queue, [triggered('d1', 1)], {
      kind: 'trigger',
      event: trigger('d2'),
    });
    expect(event).toEqual(triggered('d2', 2));
    expect(event.id).toBe(triggerEventId('d2'));
    expect(triggerEventId('d2')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-/);
    expect(triggerEventId('d3')).not.toBe(triggerEventId('d2'));
  });

  it('queues a deployment once: a second trigger of an open one decides nothing', () => {
    // Given d1 queued (and then running)
    // When it is triggered again (two requests queueing one claimed idempotency key)
    // Then nothing new, whatever the store does with the trigger's fixed event id
    expect(
      decideFrom(queue, [triggered('d1', 1)], { kind: 'trigger', event: trigger('d1') }),
    ).toEqual([]);
    expect(
      decideFrom(queue, [triggered('d1', 1), started('d1')], {
        kind: 'trigger',
        event: trigger('d1'),
      }),
    ).toEqual([]);
  });

  it('starts only the oldest queued, and only when none runs', () => {
    const given = [triggered('d1', 1), triggered('d2', 2)];
    expect(() =>
      decideFrom(queue, given, { kind: 'start', deploymentId: 'd2', runnerId: 'r' }),
    ).toThrow(/older deployment/);
    expect(decideFrom(queue, given, { kind: 'start', deploymentId: 'd1', runnerId: 'r' })).toEqual([
      started('d1'),
    ]);
    const running = [...given, started('d1')];
    expect(() =>
      decideFrom(queue, running, { kind: 'start', deploymentId: 'd2', runnerId: 'r' }),
    ).toThrow(/running/);
    expect(
      decideFrom(queue, [...running, succeeded('d1')], {
        kind: 'start',
        deploymentId: 'd2',
        runnerId: 'r',
      }),
    ).toHaveLength(1);
  });

  it('cancels a queued deployment at once and asks a running one to stop', () => {
    expect(
      decideFrom(queue, [triggered('d1', 1)], { kind: 'cancel', deploymentId: 'd1', reason: 'r' }),
    ).toEqual([DeploymentCancelled({ deploymentId: 'd1', reason: 'r' })]);
    const running = [triggered('d1', 1), started('d1')];
    expect(decideFrom(queue, running, { kind: 'cancel', deploymentId: 'd1', reason: 'r' })).toEqual(
      [DeploymentCancellationRequested({ deploymentId: 'd1', reason: 'r' })],
    );
    expect(
      decideFrom(
        queue,
        [...running, DeploymentCancellationRequested({ deploymentId: 'd1', reason: 'r' })],
        { kind: 'cancel', deploymentId: 'd1', reason: 'r' },
      ),
    ).toEqual([]);
  });

  it('refuses to cancel a finished deployment (409) and to finish one that is not running', () => {
    const failed = [
      triggered('d1', 1),
      started('d1'),
      DeploymentFailed({ deploymentId: 'd1', reason: 'x', step: null }),
    ];
    const recorded = { sequence: 1, status: 'failed' as const };
    expect(() =>
      decideFrom(queue, failed, { kind: 'cancel', deploymentId: 'd1', reason: 'r', recorded }),
    ).toThrow(
      expect.objectContaining({ code: 'CONFLICT', message: 'The deployment already failed' }),
    );
    expect(() =>
      decideFrom(queue, failed, {
        kind: 'stepStarted',
        deploymentId: 'd1',
        step: 'pull',
        recorded: { sequence: 1, status: 'running' },
      }),
    ).toThrow(/finished, not running/);
    expect(() =>
      decideFrom(queue, [triggered('d1', 1)], {
        kind: 'succeed',
        deploymentId: 'd1',
        serviceId: 'svc',
        imageRef: 'x:1',
        imageDigest: null,
      }),
    ).toThrow(/not running/);
    expect(() =>
      decideFrom(queue, [], { kind: 'cancel', deploymentId: 'zz', reason: 'r' }),
    ).toThrow(/No such deployment/);
    // A sequence this queue has not reached is not one of its deployments.
    expect(() =>
      decideFrom(queue, failed, {
        kind: 'cancel',
        deploymentId: 'zz',
        reason: 'r',
        recorded: { sequence: 2, status: 'queued' },
      }),
    ).toThrow(/No such deployment/);
  });

  it('keeps only open deployments: the state does not grow with finished ones', () => {
    const history: EventLike[] = [];
    for (let i = 1; i <= 500; i++) {
      const id = `d${i}`;
      history.push(
        triggered(id, i),
        started(id),
        DeploymentStepStarted({ deploymentId: id, step: 'pull' }),
        succeeded(id),
      );
    }
    history.push(triggered('d501', 501), started('d501'), triggered('d502', 502));
    const state = fold(history);
    expect([...state.open.keys()]).toEqual(['d501', 'd502']);
    expect(state.nextSequence).toBe(503);
    expect(state.legacyIdempotency.size).toBe(0);
  });

  it('reads idempotency keys recorded by version 1 triggers, and only those', () => {
    const keyed = { idempotencyKey: 'k', inputDigest: 'h1' };
    const v1 = {
      ...DeploymentTriggered({ ...trigger('d1', keyed), sequence: 1 }),
      schemaVersion: 1,
    };
    const state = fold([v1, triggered('d2', 2, { idempotencyKey: 'k2', inputDigest: 'h2' })]);
    expect([...state.legacyIdempotency]).toEqual([
      ['k', { deploymentId: 'd1', inputDigest: 'h1' }],
    ]);
  });

  it('does not change the state it is given (folded states are cached and shared)', () => {
    const before = fold([triggered('d1', 1)]);
    const snapshotOf = JSON.stringify([...before.open]);
    queue.evolve(before, started('d1'));
    queue.evolve(before, triggered('d2', 2));
    queue.evolve(before, DeploymentCancelled({ deploymentId: 'd1', reason: 'r' }));
    expect(JSON.stringify([...before.open])).toBe(snapshotOf);
    expect(before.nextSequence).toBe(2);
  });
});

describe("closing a service's deployments (archiving)", () => {
  const close = { kind: 'close' as const, serviceId: 'svc' };
  const closed = ServiceDeploymentsClosed({ serviceId: 'svc' });

  it('Given no open deployment, When closed, Then ServiceDeploymentsClosed; again, no event', () => {
    expect(decideFrom(queue, [triggered('d1', 1), started('d1'), succeeded('d1')], close)).toEqual([
      closed,
    ]);
    expect(decideFrom(queue, [closed], close)).toEqual([]);
  });

  it('Given a queued or running deployment, When closed, Then refused', () => {
    for (const given of [[triggered('d1', 1)], [triggered('d1', 1), started('d1')]]) {
      expect(() => decideFrom(queue, given, close)).toThrow(
        expect.objectContaining({ code: 'CONFLICT', data: { serviceId: 'svc' } }),
      );
    }
  });

  it('Given a closed queue, When triggered, Then refused', () => {
    expect(() =>
      decideFrom(
        queue,
        [triggered('d1', 1), DeploymentCancelled({ deploymentId: 'd1', reason: 'r' }), closed],
        {
          kind: 'trigger',
          event: trigger('d2'),
        },
      ),
    ).toThrow(
      expect.objectContaining({ code: 'CONFLICT', message: expect.stringMatching(/archived/) }),
    );
  });

  it('Given a queued deployment and then a close (a store written otherwise), When started, Then refused', () => {
    expect(() =>
      decideFrom(queue, [triggered('d1', 1), closed], {
        kind: 'start',
        deploymentId: 'd1',
        runnerId: 'r',
      }),
    ).toThrow(/archived/);
  });
});

describe('idempotency claim decider', () => {
  const claim = { serviceId: 'svc', deploymentId: 'd1', inputDigest: 'h1' };

  it('claims a new key for the deployment', () => {
    expect(decideFrom(claims, [], claim)).toEqual([IdempotencyKeyClaimed(claim)]);
  });

  it('returns nothing new for a repeat with the same input and refuses other input', () => {
    const given = [IdempotencyKeyClaimed(claim)];
    expect(decideFrom(claims, given, { ...claim, deploymentId: 'd2' })).toEqual([]);
    expect(() =>
      decideFrom(claims, given, { ...claim, deploymentId: 'd2', inputDigest: 'h2' }),
    ).toThrow(
      expect.objectContaining({
        code: 'CONFLICT',
        data: { deploymentId: 'd1' },
      }),
    );
  });
});
