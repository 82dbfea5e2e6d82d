import { BackupPruned, ScheduledBackupFinished } from '../src/events/backup-schedules.events.js';
import { BackupRecorded } from '../src/events/deployments.events.js';
import { BackupRestoreTestFailed, BackupRestoreTestPassed } from '../src/events/restore.events.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/**
 * `backups`: `{id, serviceId, location, checksum ("sha256:<hex>"), sizeBytes, takenAt, recordedAt,
 * scheduled, volume, lastRestoreTest}`; `scheduled`: taken by the service's backup schedule
 * (retention may delete it); `volume`: the named volume it is a tar of (null: the backup
 * command's output); `lastRestoreTest`: the latest test restore into a scratch container. A
 * backup retention deleted has no document.
 */
export interface BackupDoc extends Doc {
  serviceId: string;
  location: string;
  checksum: string;
  sizeBytes: number;
  takenAt: string;
  recordedAt: string;
  scheduled: boolean;
  volume: string | null;
  lastRestoreTest: RestoreTestResult | null;
}

/** How a backup's latest restore test went. */
export interface RestoreTestResult {
  testId: string;
  passed: boolean;
  at: string;
  exitCode: number | null;
  detail: string | null;
}

export const backupsProjection: Projection = {
  name: 'backups',
  version: 3,
  collections: [{ name: 'backups', indexes: [{ fields: ['serviceId', 'takenAt'] }] }],
  handlers: handlersOf(
    on(BackupRecorded, {
      collection: 'backups',
      documentId: (e) => e.data.backupId,
      evolve: (_c, { data, recordedAt }): BackupDoc => ({
        id: data.backupId,
        serviceId: data.serviceId,
        location: data.location,
        checksum: data.checksum,
        sizeBytes: data.sizeBytes,
        takenAt: data.takenAt,
        recordedAt,
        scheduled: false,
        volume: data.volume ?? null,
        lastRestoreTest: null,
      }),
    }),
    on(BackupRestoreTestPassed, {
      collection: 'backups',
      documentId: (e) => e.data.backupId,
      evolve: (current, { data, recordedAt }): BackupDoc | null =>
        current && {
          ...(current as BackupDoc),
          lastRestoreTest: {
            testId: data.testId,
            passed: true,
            at: recordedAt,
            exitCode: 0,
            detail: null,
          },
        },
    }),
    on(BackupRestoreTestFailed, {
      collection: 'backups',
      documentId: (e) => e.data.backupId,
      evolve: (current, { data, recordedAt }): BackupDoc | null =>
        current && {
          ...(current as BackupDoc),
          lastRestoreTest: {
            testId: data.testId,
            passed: false,
            at: recordedAt,
            exitCode: data.exitCode,
            detail: `${data.reason}: ${data.detail}`,
          },
        },
    }),
    on(ScheduledBackupFinished, {
      collection: 'backups',
      documentId: (e) => e.data.backupId,
      evolve: (current): BackupDoc | null =>
        current && { ...(current as BackupDoc), scheduled: true },
    }),
    on(BackupPruned, {
      collection: 'backups',
      documentId: (e) => e.data.backupId,
      evolve: () => null,
    }),
  ),
};
