import { describe, it } from '@jest/globals';
import {
  BackupPruned,
  BackupScheduleSet,
  ScheduledBackupClaimed,
  ScheduledBackupFinished,
} from '../src/events/backup-schedules.events.js';
import { BackupRecorded } from '../src/events/deployments.events.js';
import { BackupRestoreTestFailed, BackupRestoreTestPassed } from '../src/events/restore.events.js';
import { backupSchedulesProjection } from './backup-schedules.projection.js';
import { backupsProjection } from './backups.projection.js';
import { at } from './testing/given-events.js';
import { givenProjection } from './testing/given-projection.js';

const settings = {
  serviceId: 's-1',
  schedule: '0 3 * * *',
  timezone: 'UTC',
  retention: { keepLast: 2, keepDaily: 7, keepWeekly: 4 },
  enabled: true,
};
const recorded = (backupId: string) =>
  BackupRecorded({
    backupId,
    serviceId: 's-1',
    location: `/data/backups/s-1/${backupId}.bak`,
    checksum: 'sha256:00',
    sizeBytes: 1,
    takenAt: '2026-11-29T03:00:01.000Z',
  });
const finished = (backupId: string | null) =>
  ScheduledBackupFinished({ serviceId: 's-1', scheduledFor: '2026-11-29T03:00:00.000Z', backupId });

describe('backup schedules projection', () => {
  it('Given a schedule that took a backup, Then it shows the time claimed and the backup', () => {
    givenProjection(backupSchedulesProjection)
      .given(
        BackupScheduleSet(settings),
        ScheduledBackupClaimed({ serviceId: 's-1', scheduledFor: '2026-11-29T03:00:00.000Z' }),
        recorded('b-1'),
        finished('b-1'),
      )
      .then({
        backup_schedules: {
          's-1': {
            id: 's-1',
            schedule: '0 3 * * *',
            timezone: 'UTC',
            retention: { keepLast: 2, keepDaily: 7, keepWeekly: 4 },
            enabled: true,
            offsite: null,
            command: true,
            volumes: [],
            restoreTest: null,
            setAt: at(0),
            setBy: null,
            lastScheduledFor: '2026-11-29T03:00:00.000Z',
            lastRun: { scheduledFor: '2026-11-29T03:00:00.000Z', backupId: 'b-1', at: at(3) },
          },
        },
      });
  });
});

describe('backups projection', () => {
  it('Given a scheduled backup and one by hand, Then only the first is marked; a pruned one goes', () => {
    const doc = (id: string, scheduled: boolean, position: number) => ({
      id,
      serviceId: 's-1',
      location: `/data/backups/s-1/${id}.bak`,
      checksum: 'sha256:00',
      sizeBytes: 1,
      takenAt: '2026-11-29T03:00:01.000Z',
      recordedAt: at(position),
      scheduled,
      volume: null,
      lastRestoreTest: null,
    });
    givenProjection(backupsProjection)
      .given(recorded('b-1'), finished('b-1'), recorded('b-2'))
      .then({ backups: { 'b-1': doc('b-1', true, 0), 'b-2': doc('b-2', false, 2) } });
    givenProjection(backupsProjection)
      .given(
        recorded('b-1'),
        finished('b-1'),
        BackupPruned({ serviceId: 's-1', backupId: 'b-1', location: '/data/backups/s-1/b-1.bak' }),
        finished(null),
      )
      .then({ backups: {} });
  });
  it('Given a volume backup tested twice, Then it keeps its volume and the latest test', () => {
    const volumeBackup = BackupRecorded({
      backupId: 'b-9',
      serviceId: 's-1',
      location: '/data/backups/s-1/b-9.bak',
      checksum: 'sha256:00',
      sizeBytes: 1,
      takenAt: '2026-11-29T03:00:01.000Z',
      volume: 'data',
    });
    const about = { backupId: 'b-9', serviceId: 's-1', image: 'busybox:1.37' };
    givenProjection(backupsProjection)
      .given(
        volumeBackup,
        BackupRestoreTestPassed({ ...about, testId: 't-1', sizeBytes: 1 }),
        BackupRestoreTestFailed({
          ...about,
          testId: 't-2',
          reason: 'command-failed',
          detail: 'exit 4',
          exitCode: 4,
        }),
      )
      .then({
        backups: {
          'b-9': {
            id: 'b-9',
            serviceId: 's-1',
            location: '/data/backups/s-1/b-9.bak',
            checksum: 'sha256:00',
            sizeBytes: 1,
            takenAt: '2026-11-29T03:00:01.000Z',
            recordedAt: at(0),
            scheduled: false,
            volume: 'data',
            lastRestoreTest: {
              testId: 't-2',
              passed: false,
              at: at(2),
              exitCode: 4,
              detail: 'command-failed: exit 4',
            },
          },
        },
      });
  });
});
