import { describe, expect, it } from '@jest/globals';
import { hourly, type MetricValues, type Sample } from './metric-samples.js';

const hour = '2026-11-22T12:00:00.000Z';
const id = `container:s-1:proj-web-1#${hour}`;
const sample = (
  values: MetricValues,
  state = 'running',
  health: string | null = 'healthy',
): Sample => ({
  series: 'container:s-1:proj-web-1',
  serverId: 'srv-1',
  serviceId: 's-1',
  container: 'proj-web-1',
  values,
  state,
  health,
});

describe('hourly', () => {
  it("Given no hour yet, When a sample comes, Then it is the hour's mean and maximum", () => {
    expect(
      hourly(null, id, hour, sample({ cpuPercent: 10, memoryBytes: 2048, restarts: null }), 7),
    ).toEqual({
      id,
      series: 'container:s-1:proj-web-1',
      serverId: 'srv-1',
      serviceId: 's-1',
      container: 'proj-web-1',
      resolution: 'hour',
      at: hour,
      values: { cpuPercent: 10, memoryBytes: 2048 },
      max: { cpuPercent: 10, memoryBytes: 2048 },
      count: 1,
      counts: { cpuPercent: 1, memoryBytes: 1 },
      lastSlot: 7,
      state: 'running',
      health: 'healthy',
    });
  });

  it('Given an hour, When more samples come, Then the mean runs and the maximum holds', () => {
    const first = hourly(null, id, hour, sample({ cpuPercent: 10 }), 1);
    const second = hourly(first, id, hour, sample({ cpuPercent: 30 }), 2);
    expect(second).toMatchObject({ values: { cpuPercent: 20 }, max: { cpuPercent: 30 }, count: 2 });
    const third = hourly(second, id, hour, sample({ cpuPercent: 5 }), 3);
    expect(third).toMatchObject({ values: { cpuPercent: 15 }, max: { cpuPercent: 30 }, count: 3 });
    expect(third.lastSlot).toBe(3);
  });

  it('Given a mean that does not divide evenly, Then it is rounded to hundredths', () => {
    const first = hourly(null, id, hour, sample({ cpuPercent: 10 }), 1);
    const second = hourly(first, id, hour, sample({ cpuPercent: 11 }), 2);
    const third = hourly(second, id, hour, sample({ cpuPercent: 11 }), 3);
    expect(third.values.cpuPercent).toBe(10.67);
  });

  it('Given a sample missing a metric, Then its mean and maximum stay and the count still grows', () => {
    const first = hourly(null, id, hour, sample({ cpuPercent: 40, memoryPercent: 8 }), 1);
    const second = hourly(first, id, hour, sample({ cpuPercent: null }, 'exited', null), 2);
    expect(second).toMatchObject({
      values: { cpuPercent: 40, memoryPercent: 8 },
      max: { cpuPercent: 40, memoryPercent: 8 },
      count: 2,
      lastSlot: 2,
      state: 'exited',
      health: null,
    });
  });

  it('Given a metric first read later in the hour, Then its mean starts from that reading', () => {
    const first = hourly(null, id, hour, sample({ cpuPercent: null }), 1);
    expect(first.values).toEqual({});
    const second = hourly(first, id, hour, sample({ cpuPercent: 25 }), 2);
    expect(second).toMatchObject({ values: { cpuPercent: 25 }, max: { cpuPercent: 25 }, count: 2 });
  });

  it('Given readings missing from some samples, Then the mean weighs only the readings', () => {
    let doc = hourly(null, id, hour, sample({ cpuPercent: null }, 'exited'), 1);
    for (let slot = 2; slot <= 30; slot++) {
      doc = hourly(doc, id, hour, sample({ cpuPercent: null }, 'exited'), slot);
    }
    doc = hourly(doc, id, hour, sample({ cpuPercent: 10 }), 31);
    doc = hourly(doc, id, hour, sample({ cpuPercent: 20 }), 32);
    expect(doc).toMatchObject({ values: { cpuPercent: 15 }, count: 32, counts: { cpuPercent: 2 } });
  });

  it('Given a stored null mean, When a value comes, Then the value replaces it', () => {
    const before = {
      ...hourly(null, id, hour, sample({}), 1),
      values: { cpuPercent: null },
      max: { cpuPercent: null },
    };
    expect(hourly(before, id, hour, sample({ cpuPercent: 3 }), 2)).toMatchObject({
      values: { cpuPercent: 3 },
      max: { cpuPercent: 3 },
    });
  });
});
