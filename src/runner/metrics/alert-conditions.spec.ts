import { describe, expect, it } from '@jest/globals';
import {
  RESTART_LOOP_COUNT,
  restartLoopFinding,
  thresholdFinding,
  unhealthyFinding,
  type Point,
} from './alert-conditions.js';

const now = new Date('2026-11-22T12:00:00.000Z');
/** Readings given as [seconds before now, value], oldest first. */
const points = (...readings: [number, number | null][]): Point[] =>
  readings.map(([ago, value]) => ({
    at: new Date(now.getTime() - ago * 1000).toISOString(),
    value,
  }));
const rule = { warning: 80, critical: 95, forSeconds: 300 };

describe('thresholdFinding', () => {
  it('Given the latest reading below every threshold, Then ok', () => {
    expect(thresholdFinding(rule, points([600, 90], [0, 50]), now)).toEqual({
      level: 'ok',
      value: 50,
      threshold: 80,
    });
  });

  it('Given readings above a threshold not for long enough, Then nothing is known yet', () => {
    expect(thresholdFinding(rule, points([600, 50], [120, 85], [0, 90]), now)).toEqual({
      level: null,
      value: 90,
      threshold: 80,
    });
  });

  it('Given readings above the warning for forSeconds, Then warning', () => {
    expect(thresholdFinding(rule, points([600, 50], [300, 85], [0, 90]), now)).toEqual({
      level: 'warning',
      value: 90,
      threshold: 80,
    });
  });

  it('Given readings above both thresholds for forSeconds, Then critical wins', () => {
    expect(thresholdFinding(rule, points([400, 96], [200, 97], [0, 99]), now)).toEqual({
      level: 'critical',
      value: 99,
      threshold: 95,
    });
  });

  it('Given critical only lately but warning for long, Then warning', () => {
    expect(thresholdFinding(rule, points([400, 85], [100, 96], [0, 97]), now)).toEqual({
      level: 'warning',
      value: 97,
      threshold: 80,
    });
  });

  it('Given forSeconds 0, Then the latest reading alone decides', () => {
    const instant = { ...rule, forSeconds: 0 };
    expect(thresholdFinding(instant, points([60, 50], [0, 96]), now).level).toBe('critical');
    expect(thresholdFinding(instant, points([60, 99], [0, 85]), now).level).toBe('warning');
    expect(thresholdFinding(instant, points([60, 99], [0, 10]), now).level).toBe('ok');
  });

  it('Given no readings, Then nothing is known', () => {
    const unknown = { level: null, value: null, threshold: null };
    expect(thresholdFinding(rule, [], now)).toEqual(unknown);
    expect(thresholdFinding(rule, points([300, null], [0, null]), now)).toEqual(unknown);
  });

  it('Given a dip below the threshold, Then the run starts again after it', () => {
    expect(
      thresholdFinding(rule, points([600, 85], [400, 90], [200, 70], [100, 85], [0, 90]), now),
    ).toEqual({ level: null, value: 90, threshold: 80 });
  });

  it('Given a missing reading within a run, Then it does not break the run', () => {
    expect(thresholdFinding(rule, points([400, 85], [200, null], [0, 90]), now).level).toBe(
      'warning',
    );
  });

  it('Given only a critical threshold, Then ok is judged against it', () => {
    const criticalOnly = { warning: null, critical: 95, forSeconds: 0 };
    expect(thresholdFinding(criticalOnly, points([0, 85]), now)).toEqual({
      level: 'ok',
      value: 85,
      threshold: 95,
    });
  });
});

describe('restartLoopFinding', () => {
  it('Given fewer than two readings, Then nothing is known', () => {
    const unknown = { level: null, value: null, threshold: RESTART_LOOP_COUNT };
    expect(restartLoopFinding([], now)).toEqual(unknown);
    expect(restartLoopFinding(points([0, 7]), now)).toEqual(unknown);
    expect(restartLoopFinding(points([60, null], [0, 7]), now)).toEqual(unknown);
  });

  it('Given three restarts within the window, Then critical', () => {
    expect(restartLoopFinding(points([500, 1], [300, 2], [0, 4]), now)).toEqual({
      level: 'critical',
      value: 3,
      threshold: RESTART_LOOP_COUNT,
    });
  });

  it('Given two restarts within the window, Then ok', () => {
    expect(restartLoopFinding(points([500, 1], [0, 3]), now)).toEqual({
      level: 'ok',
      value: 2,
      threshold: RESTART_LOOP_COUNT,
    });
  });

  it('Given a new container counting again from 0, Then the drop is not negative', () => {
    expect(restartLoopFinding(points([500, 5], [300, 0], [100, 1]), now)).toEqual({
      level: 'ok',
      value: 1,
      threshold: RESTART_LOOP_COUNT,
    });
  });

  it('Given restarts older than the window, Then they are ignored', () => {
    expect(restartLoopFinding(points([1200, 0], [900, 10], [300, 10], [0, 10]), now)).toEqual({
      level: 'ok',
      value: 0,
      threshold: RESTART_LOOP_COUNT,
    });
  });
});

describe('unhealthyFinding', () => {
  it('Given an unhealthy container, Then critical', () => {
    expect(unhealthyFinding('unhealthy')).toEqual({
      level: 'critical',
      value: null,
      threshold: null,
    });
  });

  it('Given any other health, or none, Then ok', () => {
    for (const health of ['healthy', 'starting', null]) {
      expect(unhealthyFinding(health).level).toBe('ok');
    }
  });
});
