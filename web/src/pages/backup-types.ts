import type { AnswerOf } from '../api/answers';

/** A recorded backup, a service's backup schedule, a copy of a backup, an S3 target. */
export type Backup = AnswerOf<'backups'>['items'][number];
export type Schedule = NonNullable<AnswerOf<'backupSchedule'>['schedule']>;
export type Copy = AnswerOf<'backupCopies'>['copies'][number];
/** An S3 target as owners and admins see it (`s3Targets`). */
export type S3Target = AnswerOf<'s3Targets'>['targets'][number];
/** What choosing a target needs: the whole target, or its id and name (`s3TargetNames`). */
export type S3TargetChoice = AnswerOf<'s3TargetNames'>['targets'][number] & { bucket?: string };
export type Server = AnswerOf<'infrastructureInventory'>['servers'][number];

/** What the backups dialog knows of its service. */
export interface BackupService {
  id: string;
  name: string;
  /** The shell line the service's backups run, or null: it has none (volumes only). */
  backupCommand: string | null;
}

export const size = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1048576
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1048576).toFixed(1)} MB`;

/** A test command as the form takes it: the line of `sh -c <line>`, or the arguments joined. */
export function commandLine(command: string[] | null): string {
  if (command === null) return '';
  if (command.length === 3 && command[0] === 'sh' && command[1] === '-c') return command[2];
  return command.join(' ');
}

/** The place a copy names (a server's id, or `s3:<targetId>`), in words. */
export function placeName(place: string, servers: Server[], targets: S3TargetChoice[]): string {
  if (place.startsWith('s3:')) {
    const id = place.slice(3);
    const target = targets.find((t) => t.targetId === id);
    return target ? `S3 ${target.displayName} (${id})` : `S3 target ${id}`;
  }
  return `server ${servers.find((s) => s.id === place)?.name ?? place}`;
}

/** Where a schedule copies each backup, in words. */
export function offsiteText(
  offsite: Schedule['offsite'],
  servers: Server[],
  targets: S3TargetChoice[],
): string {
  if (offsite === null) return 'nowhere: kept on this control plane only';
  if ('s3TargetId' in offsite) return placeName(`s3:${offsite.s3TargetId}`, servers, targets);
  return `${placeName(offsite.serverId, servers, targets)}, in ${offsite.directory}`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A schedule's retention in words: "the newest 7, one a day for 7 days, one a week for 4 weeks". */
export function retentionText({ keepLast, keepDaily, keepWeekly }: Schedule['retention']): string {
  const parts = [
    keepLast > 0 && `the newest ${keepLast}`,
    keepDaily > 0 && `one a day for ${plural(keepDaily, 'day', 'days')}`,
    keepWeekly > 0 && `one a week for ${plural(keepWeekly, 'week', 'weeks')}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'only the newest';
}

/** Seconds as the schedule shows them: "30 min", "1 h", "45 s". */
export function seconds(total: number): string {
  if (total < 60 || total % 60 !== 0) return `${total} s`;
  if (total < 3600 || total % 3600 !== 0) return `${total / 60} min`;
  return `${total / 3600} h`;
}

/** What a backup is of: its volume, or the backup command's output. */
export const sourceOf = (backup: Backup) =>
  backup.volume === null ? 'backup command' : `volume ${backup.volume}`;

/** Whether "Test restore" can test this backup with no image and command of its own. */
export const testable = (backup: Backup, schedule: Schedule | null) =>
  backup.volume !== null || Boolean(schedule?.restoreTest?.image);
