import { BackupPruned, ScheduledBackupFinished } from '../src/events/backup-schedules.events.js';
import { BackupRecorded } from '../src/events/deployments.events.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/**
 * `backups`: `{id, serviceId, location, checksum ("sha256:<hex>"), sizeBytes, takenAt, recordedAt,
 * scheduled}`; `scheduled`: taken by the service's backup schedule (retention may delete it). A
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
}

export const backupsProjection: Projection = {
  name: 'backups',
  version: 2,
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
      }),
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
