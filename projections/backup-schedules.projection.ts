import {
  BackupScheduleRemoved,
  BackupScheduleSet,
  ScheduledBackupClaimed,
  ScheduledBackupFinished,
  type BackupScheduleSettings,
  type OffsiteCopy,
  type RestoreTestSettings,
} from '../src/events/backup-schedules.events.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/** The last scheduled backup: the time it was for, the backup it took (null: it failed). */
export interface LastScheduledBackup {
  scheduledFor: string;
  backupId: string | null;
  at: string;
}

/**
 * `backup_schedules`: `{id (the service id), schedule, timezone, retention {keepLast, keepDaily,
 * keepWeekly}, enabled, offsite {serverId, directory} | {s3TargetId} | null, command (the backup
 * command is run), volumes (named volumes tarred), restoreTest {image, command,
 * timeLimitSeconds} | null, setAt, setBy, lastScheduledFor, lastRun}`. A removed schedule has no
 * document.
 */
export interface BackupScheduleDoc
  extends
    Omit<BackupScheduleSettings, 'serviceId' | 'offsite' | 'command' | 'volumes' | 'restoreTest'>,
    Doc {
  offsite: OffsiteCopy | null;
  command: boolean;
  volumes: string[];
  restoreTest: RestoreTestSettings | null;
  setAt: string;
  setBy: string | null;
  lastScheduledFor: string | null;
  lastRun: LastScheduledBackup | null;
}

const byService = (e: { data: { serviceId: string } }) => e.data.serviceId;

export const backupSchedulesProjection: Projection = {
  name: 'backup_schedules',
  version: 2,
  collections: [{ name: 'backup_schedules' }],
  handlers: handlersOf(
    on<EventDataOf<typeof BackupScheduleSet>, BackupScheduleDoc>(BackupScheduleSet, {
      collection: 'backup_schedules',
      documentId: byService,
      evolve: (current, { data, metadata, recordedAt }) => ({
        id: data.serviceId,
        schedule: data.schedule,
        timezone: data.timezone,
        retention: data.retention,
        enabled: data.enabled,
        offsite: data.offsite ?? null,
        command: data.command ?? true,
        volumes: data.volumes ?? [],
        restoreTest: data.restoreTest ?? null,
        setAt: recordedAt,
        setBy: metadata.actor.principalId,
        lastScheduledFor: current?.lastScheduledFor ?? null,
        lastRun: current?.lastRun ?? null,
      }),
    }),
    on<EventDataOf<typeof BackupScheduleRemoved>, BackupScheduleDoc>(BackupScheduleRemoved, {
      collection: 'backup_schedules',
      documentId: byService,
      evolve: () => null,
    }),
    on<EventDataOf<typeof ScheduledBackupClaimed>, BackupScheduleDoc>(ScheduledBackupClaimed, {
      collection: 'backup_schedules',
      documentId: byService,
      evolve: (current, { data }) =>
        current && {
          ...current,
          lastScheduledFor:
            current.lastScheduledFor && current.lastScheduledFor > data.scheduledFor
              ? current.lastScheduledFor
              : data.scheduledFor,
        },
    }),
    on<EventDataOf<typeof ScheduledBackupFinished>, BackupScheduleDoc>(ScheduledBackupFinished, {
      collection: 'backup_schedules',
      documentId: byService,
      evolve: (current, { data, recordedAt }) =>
        current && {
          ...current,
          lastRun: { scheduledFor: data.scheduledFor, backupId: data.backupId, at: recordedAt },
        },
    }),
  ),
};
