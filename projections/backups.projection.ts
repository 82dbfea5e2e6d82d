import type { Doc } from '../src/readstore/read-store.port.js';
import type { Projection } from './projection.js';

/** `backups`: `{id, serviceId, location, checksum ("sha256:<hex>"), sizeBytes, takenAt, recordedAt}`. */
export interface BackupDoc extends Doc {
  serviceId: string;
  location: string;
  checksum: string;
  sizeBytes: number;
  takenAt: string;
  recordedAt: string;
}

export const backupsProjection: Projection = {
  name: 'backups',
  version: 1,
  collections: [{ name: 'backups', indexes: [{ fields: ['serviceId', 'takenAt'] }] }],
  handlers: {
    BackupRecorded: [
      {
        collection: 'backups',
        documentId: (e) => String(e.data.backupId),
        evolve: (_c, e): BackupDoc => ({
          id: String(e.data.backupId),
          serviceId: String(e.data.serviceId),
          location: String(e.data.location),
          checksum: String(e.data.checksum),
          sizeBytes: Number(e.data.sizeBytes),
          takenAt: String(e.data.takenAt),
          recordedAt: e.recordedAt,
        }),
      },
    ],
  },
};
