import type { AlertSeverity } from '../../events/alerts.events.js';

/** One reading of one metric of a series; null where it was not read. */
export interface Point {
  at: string;
  value: number | null;
}

/** What a check found: a severity, `ok`, or null (not known yet: nothing is decided). */
export interface Finding {
  level: AlertSeverity | 'ok' | null;
  value: number | null;
  threshold: number | null;
}

export interface Thresholds {
  warning: number | null;
  critical: number | null;
  forSeconds: number;
}

/** A container restarted this many times within the window is in a restart loop. */
export const RESTART_LOOP_COUNT = 3;
export const RESTART_LOOP_WINDOW_SECONDS = 600;

/**
 * Since when the metric has stayed at or above `threshold` (the first reading of the run that
 * reaches the latest one), or null when the latest reading is below it.
 */
function breachingSince(points: Point[], threshold: number): number | null {
  let since: number | null = null;
  for (const { at, value } of points) {
    if (value === null) continue;
    if (value >= threshold) since ??= Date.parse(at);
    else since = null;
  }
  return since;
}

/**
 * A threshold rule on one series' readings (oldest first, reaching back at least `forSeconds`
 * before `now`): critical or warning once the metric has stayed at or above that threshold for
 * `forSeconds`; ok once the latest reading is below every threshold; null meanwhile (it
 * exceeds one, not for long enough yet) and while nothing was read.
 */
export function thresholdFinding(rule: Thresholds, points: Point[], now: Date): Finding {
  const read = points.filter((p) => p.value !== null);
  const latest = read.at(-1);
  if (!latest) return { level: null, value: null, threshold: null };
  const value = latest.value;
  for (const level of ['critical', 'warning'] as const) {
    const threshold = rule[level];
    if (threshold === null) continue;
    const since = breachingSince(read, threshold);
    if (since !== null && now.getTime() - since >= rule.forSeconds * 1000) {
      return { level, value, threshold };
    }
  }
  const lowest = Math.min(...[rule.warning, rule.critical].filter((t): t is number => t !== null));
  if (value! < lowest) return { level: 'ok', value, threshold: lowest };
  return { level: null, value, threshold: lowest };
}

/**
 * Restarts of one container within the window (its restart count's rises between readings; a
 * new container starts again from 0): critical at RESTART_LOOP_COUNT, ok below it; null with
 * fewer than two readings.
 */
export function restartLoopFinding(points: Point[], now: Date): Finding {
  const from = now.getTime() - RESTART_LOOP_WINDOW_SECONDS * 1000;
  const read = points.filter((p) => p.value !== null && Date.parse(p.at) >= from);
  if (read.length < 2) return { level: null, value: null, threshold: RESTART_LOOP_COUNT };
  let restarts = 0;
  for (let i = 1; i < read.length; i++) {
    restarts += Math.max(0, read[i]!.value! - read[i - 1]!.value!);
  }
  return {
    level: restarts >= RESTART_LOOP_COUNT ? 'critical' : 'ok',
    value: restarts,
    threshold: RESTART_LOOP_COUNT,
  };
}

/** A container its health check calls unhealthy: critical; any other health: ok. */
export function unhealthyFinding(health: string | null): Finding {
  return { level: health === 'unhealthy' ? 'critical' : 'ok', value: null, threshold: null };
}
