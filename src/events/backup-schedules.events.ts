import { defineEvent } from '../eventstore/define-event.js';

/**
 * How long scheduled backups are kept: the newest `keepLast`, and the newest of each of the
 * last `keepDaily` days and `keepWeekly` weeks that have one (days and weeks in the schedule's
 * time zone). A backup any rule keeps stays; the others are deleted.
 */
export type BackupRetention = { keepLast: number; keepDaily: number; keepWeekly: number };

export type BackupScheduleSettings = {
  serviceId: string;
  schedule: string;
  timezone: string;
  retention: BackupRetention;
  enabled: boolean;
};

/** Stream `backup-schedule-<serviceId>`: the service's backup schedule, whole each time. */
export const BackupScheduleSet = defineEvent<BackupScheduleSettings>('BackupScheduleSet', 1);

export const BackupScheduleRemoved = defineEvent<{ serviceId: string }>('BackupScheduleRemoved', 1);

/**
 * Stream `backup-run-<serviceId>@<time>`: the backup the schedule made due then, claimed by the
 * first scheduler there (so several start it once), then how it ended: the backup it recorded,
 * or null when it failed (the failure itself is `BackupFailed` on the service's backups).
 */
export const ScheduledBackupClaimed = defineEvent<{ serviceId: string; scheduledFor: string }>(
  'ScheduledBackupClaimed',
  1,
);

export const ScheduledBackupFinished = defineEvent<{
  serviceId: string;
  scheduledFor: string;
  backupId: string | null;
}>('ScheduledBackupFinished', 1);

/** On the service's backups stream: a scheduled backup retention no longer keeps, deleted. */
export const BackupPruned = defineEvent<{ serviceId: string; backupId: string; location: string }>(
  'BackupPruned',
  1,
);

export const backupScheduleStream = (serviceId: string) => `backup-schedule-${serviceId}`;
export const scheduledBackupStream = (serviceId: string, time: Date) =>
  `backup-run-${serviceId}@${time.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
