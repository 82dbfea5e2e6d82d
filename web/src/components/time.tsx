const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

function toDate(value: string | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

/** "3 minutes ago", with the exact time on hover and for assistive technology. */
export function When({ at, now = Date.now() }: { at: string | Date | null; now?: number }) {
  if (at === null) return <span className="muted">—</span>;
  const date = toDate(at);
  return (
    <time dateTime={date.toISOString()} title={absolute.format(date)}>
      {ago(date.getTime() - now)}
    </time>
  );
}

function ago(ms: number): string {
  const seconds = Math.round(ms / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return relative.format(seconds, 'second');
  if (abs < 45 * 60) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 22 * 3600) return relative.format(Math.round(seconds / 3600), 'hour');
  return relative.format(Math.round(seconds / 86400), 'day');
}

export function exactTime(at: string | Date | null): string {
  return at === null ? '—' : absolute.format(toDate(at));
}

/** From start to end (or to now, while running): "1 min 20 s". */
export function duration(from: string | Date | null, to: string | Date | null): string {
  if (from === null) return '—';
  const ms = (to === null ? Date.now() : toDate(to).getTime()) - toDate(from).getTime();
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** When a schedule next comes due: how long from now and the exact time, or that it is off. */
export function NextRun({ at }: { at: string | null }) {
  if (at === null) return <span className="muted">none: disabled</span>;
  return (
    <>
      <When at={at} />
      <br />
      <span className="muted small">{exactTime(at)}</span>
    </>
  );
}
