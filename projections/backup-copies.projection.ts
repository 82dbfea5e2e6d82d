import {
  BackupCopied,
  BackupCopyCorrupted,
  BackupCopyFailed,
  BackupCopyVerified,
  BackupCopyRemoved,
  type CopyFailure,
} from '../src/events/backup-schedules.events.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

export type CopyStatus = 'copied' | 'failed' | 'corrupted';

/**
 * `backup_copies`: `{id (<backupId>:<serverId>), backupId, serviceId, serverId, remotePath,
 * checksum, sizeBytes, status, reason, detail, copiedAt, verifiedAt}`: the copy of a backup on
 * another server, until retention removes it with its backup.
 */
export interface BackupCopyDoc extends Doc {
  backupId: string;
  serviceId: string;
  serverId: string;
  remotePath: string | null;
  checksum: string | null;
  sizeBytes: number | null;
  status: CopyStatus;
  reason: CopyFailure | null;
  detail: string | null;
  copiedAt: string | null;
  verifiedAt: string | null;
}

const copyId = (e: { data: { backupId: string; serverId: string } }) =>
  `${e.data.backupId}:${e.data.serverId}`;

export const backupCopiesProjection: Projection = {
  name: 'backup_copies',
  version: 1,
  collections: [
    { name: 'backup_copies', indexes: [{ fields: ['serviceId'] }, { fields: ['backupId'] }] },
  ],
  handlers: handlersOf(
    on<EventDataOf<typeof BackupCopied>, BackupCopyDoc>(BackupCopied, {
      collection: 'backup_copies',
      documentId: copyId,
      evolve: (_c, { data, recordedAt }) => ({
        id: `${data.backupId}:${data.serverId}`,
        backupId: data.backupId,
        serviceId: data.serviceId,
        serverId: data.serverId,
        remotePath: data.remotePath,
        checksum: data.checksum,
        sizeBytes: data.sizeBytes,
        status: 'copied',
        reason: null,
        detail: null,
        copiedAt: recordedAt,
        verifiedAt: recordedAt,
      }),
    }),
    on<EventDataOf<typeof BackupCopyFailed>, BackupCopyDoc>(BackupCopyFailed, {
      collection: 'backup_copies',
      documentId: copyId,
      evolve: (current, { data }) => ({
        id: `${data.backupId}:${data.serverId}`,
        backupId: data.backupId,
        serviceId: data.serviceId,
        serverId: data.serverId,
        remotePath: current?.remotePath ?? null,
        checksum: current?.checksum ?? null,
        sizeBytes: current?.sizeBytes ?? null,
        status: 'failed',
        reason: data.reason,
        detail: data.detail,
        copiedAt: current?.copiedAt ?? null,
        verifiedAt: current?.verifiedAt ?? null,
      }),
    }),
    on<EventDataOf<typeof BackupCopyVerified>, BackupCopyDoc>(BackupCopyVerified, {
      collection: 'backup_copies',
      documentId: copyId,
      evolve: (current, { recordedAt }) =>
        current && { ...current, status: 'copied', detail: null, verifiedAt: recordedAt },
    }),
    on<EventDataOf<typeof BackupCopyCorrupted>, BackupCopyDoc>(BackupCopyCorrupted, {
      collection: 'backup_copies',
      documentId: copyId,
      evolve: (current, { data, recordedAt }) =>
        current && {
          ...current,
          status: 'corrupted',
          detail: `read back ${data.actual ?? 'nothing'}, expected ${data.expected}`,
          verifiedAt: recordedAt,
        },
    }),
    on<EventDataOf<typeof BackupCopyRemoved>, BackupCopyDoc>(BackupCopyRemoved, {
      collection: 'backup_copies',
      documentId: copyId,
      evolve: () => null,
    }),
  ),
};
