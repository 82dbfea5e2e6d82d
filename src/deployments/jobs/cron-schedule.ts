type Parser = typeof import('cron-parser').CronExpressionParser;

let parser: Promise<Parser> | null = null;

/** cron-parser (and the date library under it), loaded at the first schedule: not at start. */
function cron(): Promise<Parser> {
  parser ??= import('cron-parser').then((m) => m.CronExpressionParser);
  return parser;
}

/** Why `schedule` read in `timezone` is not a schedule a job may have, or null. */
export async function scheduleProblem(schedule: string, timezone: string): Promise<string | null> {
  const CronExpressionParser = await cron();
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    return `the time zone ${timezone} is not an IANA time zone`;
  }
  try {
    const times = CronExpressionParser.parse(schedule, { tz: timezone }).take(2);
    if (times.length < 2) return 'the schedule never comes due twice';
    // Runs closer than a minute apart would pile up faster than they can be recorded.
    const gap = times[1].getTime() - times[0].getTime();
    if (gap < 60_000) return 'the schedule comes due more than once a minute';
    return null;
  } catch (error) {
    return `the schedule is not a cron expression (${error instanceof Error ? error.message : 'invalid'})`;
  }
}

/**
 * The latest time the schedule came due after `after` and not later than `now`, or null. Times
 * missed while nothing ran are not made up one by one: only the latest is due.
 */
export async function dueTime(
  schedule: string,
  timezone: string,
  after: Date,
  now: Date,
): Promise<Date | null> {
  const CronExpressionParser = await cron();
  const next = CronExpressionParser.parse(schedule, { tz: timezone, currentDate: after }).next();
  if (next.getTime() > now.getTime()) return null;
  const latest = CronExpressionParser.parse(schedule, { tz: timezone, currentDate: now });
  // `prev()` is strictly before `now`; a time exactly at `now` is due too.
  const exactly = CronExpressionParser.parse(schedule, {
    tz: timezone,
    currentDate: new Date(now.getTime() - 1),
  }).next();
  return exactly.getTime() === now.getTime() ? exactly.toDate() : latest.prev().toDate();
}

/** The next time the schedule comes due after `after`. */
export async function nextTime(schedule: string, timezone: string, after: Date): Promise<Date> {
  const CronExpressionParser = await cron();
  return CronExpressionParser.parse(schedule, { tz: timezone, currentDate: after }).next().toDate();
}
