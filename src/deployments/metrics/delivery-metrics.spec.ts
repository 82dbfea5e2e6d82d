import { describe, expect, it } from '@jest/globals';
import { deliveryMetrics, metricsWindow, type FinishedDeployment } from './delivery-metrics.js';

const window = metricsWindow(new Date('2026-11-10T15:00:00Z'), 7);

/** A deployment of `service`, requested `leadMinutes` before it finished at `finishedAt`. */
function deployment(
  service: string,
  status: FinishedDeployment['status'],
  finishedAt: string | null,
  leadMinutes = 10,
): FinishedDeployment {
  const end = finishedAt ?? '2026-11-10T12:00:00Z';
  return {
    serviceId: `id-${service}`,
    serviceName: service,
    environment: 'production',
    status,
    createdAt: new Date(Date.parse(end) - leadMinutes * 60_000).toISOString(),
    finishedAt,
  };
}

describe('deliveryMetrics', () => {
  it('Given a 7-day window ending today, then it covers whole UTC days up to midnight tonight', () => {
    expect(window).toEqual({
      from: '2026-11-04T00:00:00.000Z',
      to: '2026-11-11T00:00:00.000Z',
      days: 7,
    });
  });

  it('Given no deployment, when measured, then counts are zero and the rates unknown (null)', () => {
    const { overall, services } = deliveryMetrics([], window);
    expect(services).toEqual([]);
    expect(overall).toMatchObject({
      succeeded: 0,
      failed: 0,
      deploymentsPerDay: 0,
      leadTimeSeconds: null,
      changeFailureRate: null,
      timeToRestoreSeconds: null,
      unrestoredFailures: 0,
    });
    expect(overall.daily).toHaveLength(7);
  });

  it('Given successes with lead times of 10, 20 and 60 minutes, then frequency and lead time follow', () => {
    const { overall } = deliveryMetrics(
      [
        deployment('api', 'succeeded', '2026-11-05T10:00:00Z', 10),
        deployment('api', 'succeeded', '2026-11-06T10:00:00Z', 20),
        deployment('api', 'succeeded', '2026-11-06T11:00:00Z', 60),
      ],
      window,
    );
    expect(overall.succeeded).toBe(3);
    expect(overall.deploymentsPerDay).toBe(0.43);
    expect(overall.leadTimeSeconds).toEqual({ median: 1200, p90: 3600, count: 3 });
    expect(overall.daily.find((d) => d.date === '2026-11-06')).toEqual({
      date: '2026-11-06',
      succeeded: 2,
      failed: 0,
    });
  });

  it('Given a failure restored 30 minutes later and one never restored, then time to restore and the failure rate', () => {
    const { overall } = deliveryMetrics(
      [
        deployment('api', 'succeeded', '2026-11-05T09:00:00Z'),
        deployment('api', 'failed', '2026-11-05T10:00:00Z'),
        deployment('api', 'succeeded', '2026-11-05T10:30:00Z'),
        deployment('api', 'failed', '2026-11-09T10:00:00Z'),
      ],
      window,
    );
    expect(overall.changeFailureRate).toBe(0.5);
    expect(overall.timeToRestoreSeconds).toEqual({ median: 1800, p90: 1800, count: 1 });
    expect(overall.unrestoredFailures).toBe(1);
  });

  it('Given a failure of one service, then a success of another does not restore it', () => {
    const { services } = deliveryMetrics(
      [
        deployment('api', 'failed', '2026-11-05T10:00:00Z'),
        deployment('web', 'succeeded', '2026-11-05T11:00:00Z'),
      ],
      window,
    );
    expect(services.map((s) => [s.serviceName, s.unrestoredFailures, s.changeFailureRate])).toEqual(
      [
        ['api', 1, 1],
        ['web', 0, 0],
      ],
    );
  });

  it('Given deployments outside the window, cancelled or unfinished, then they are not counted', () => {
    const { overall } = deliveryMetrics(
      [
        deployment('api', 'succeeded', '2026-11-03T23:59:59Z'),
        deployment('api', 'succeeded', '2026-11-11T00:00:00Z'),
        deployment('api', 'cancelled', '2026-11-05T10:00:00Z'),
        deployment('api', 'running', null),
      ],
      window,
    );
    expect([overall.succeeded, overall.failed, overall.changeFailureRate]).toEqual([0, 0, null]);
  });
});
