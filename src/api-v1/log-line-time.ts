/** The time `docker compose logs --timestamps` puts before a line: RFC 3339, in UTC. */
const STAMP = /\|\s(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z)\s/;
const RESUME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z$/;

/** The timestamp of a container log line, or null when it has none. */
export function lineTime(text: string): string | null {
  return STAMP.exec(text)?.[1] ?? null;
}

/** A `Last-Event-ID` a service log stream resumes after: one of its lines' timestamps. */
export function resumeTime(header: string | string[] | undefined): string | null {
  return typeof header === 'string' && RESUME.test(header) ? header : null;
}

/**
 * Whether `time` is after `since`, to the nanosecond: Docker drops trailing zeros of the
 * fraction, so the two are compared with nine digits each.
 */
export function after(time: string, since: string): boolean {
  const nine = (t: string) => {
    const [whole, fraction = ''] = t.slice(0, -1).split('.');
    return `${whole}.${fraction.padEnd(9, '0')}`;
  };
  return nine(time) > nine(since);
}
