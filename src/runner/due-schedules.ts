import type { AppConfig } from '../config/app-config.js';
import { dueTime } from '../deployments/jobs/cron-schedule.js';
import type { CollectionReader, Doc, Filter } from '../readstore/read-store.port.js';

/**
 * How often a pass that starts scheduled work (jobs, backups) runs: as often as the embedded
 * runner polls, at most every 250 ms; none when the runner is another process's or off.
 */
export function embeddedRunnerPollMs(config: AppConfig): number {
  return config.runner.mode === 'embedded' ? Math.max(config.runner.pollMs, 250) : 0;
}

/** What a schedule's read-model document says of when it comes due. */
export interface ScheduleFields extends Doc {
  schedule: string;
  timezone: string;
  /** The latest due time claimed (on its own stream); null before the first. */
  lastScheduledFor: string | null;
}

export interface DueSchedules<D extends ScheduleFields> {
  /** The enabled ones (at most `limit`, by id). */
  filter: Filter;
  limit: number;
  /** Since when a schedule that never claimed a time counts (when it was set). */
  since: (schedule: D) => string;
}

/**
 * The schedules with a time come due after the one each last claimed, with the latest such time:
 * the one to claim. Times missed while no runner ran are not made up one by one. Yielded one at
 * a time, so a schedule's work (a backup) is done before the next one's time is worked out.
 */
export async function* dueSchedules<D extends ScheduleFields>(
  collection: CollectionReader<D>,
  { filter, limit, since }: DueSchedules<D>,
  now: Date,
): AsyncGenerator<{ schedule: D; due: Date }> {
  const { items } = await collection.find(filter, { sort: { id: 1 }, limit });
  for (const schedule of items) {
    const after = new Date(schedule.lastScheduledFor ?? since(schedule));
    const due = await dueTime(schedule.schedule, schedule.timezone, after, now);
    if (due) yield { schedule, due };
  }
}
