import type { BackupRetention } from '../../events/backup-schedules.events.js';

export interface Kept {
  id: string;
  takenAt: string;
}

/** `YYYY-MM-DD` of an instant in a time zone. */
function dayIn(timezone: string, at: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/** The ISO week (`YYYY-Www`) of a calendar day: the week of its Thursday. */
function isoWeek(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 4 - (date.getUTCDay() || 7));
  const yearStart = Date.UTC(date.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((date.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${date.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/**
 * The backups retention deletes: of `backups`, those no rule keeps. The newest is always kept.
 * Pure: the same backups and rules give the same answer.
 */
export function toPrune(backups: Kept[], retention: BackupRetention, timezone: string): Kept[] {
  const newestFirst = [...backups].sort((a, b) => b.takenAt.localeCompare(a.takenAt));
  const keep = new Set<string>(
    newestFirst.slice(0, Math.max(1, retention.keepLast)).map((b) => b.id),
  );
  const newestPer = (period: (b: Kept) => string, count: number) => {
    const seen = new Set<string>();
    for (const backup of newestFirst) {
      const key = period(backup);
      if (seen.has(key)) continue;
      if (seen.size >= count) break;
      seen.add(key);
      keep.add(backup.id);
    }
  };
  const day = (b: Kept) => dayIn(timezone, new Date(b.takenAt));
  newestPer(day, retention.keepDaily);
  newestPer((b) => isoWeek(day(b)), retention.keepWeekly);
  return newestFirst.filter((b) => !keep.has(b.id));
}
