import { createHash } from 'node:crypto';
import { resolve, sep } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import type { BackupCopyDoc } from '../../../projections/backup-copies.projection.js';
import type { BackupDoc } from '../../../projections/backups.projection.js';
import { conflict } from '../../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import {
  BackupCopied,
  BackupCopyCorrupted,
  BackupCopyFailed,
  BackupCopyRemoved,
  BackupCopyVerified,
  backupCopiesStream,
  copyPlace,
  type CopyFailure,
  type OffsiteCopy,
} from '../../events/backup-schedules.events.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { EventWriter } from '../../storage/event-writer.js';
import { CopyPlaces, type CopyPlace } from './copy-places.js';

export type CopyOutcome =
  | { status: 'copied'; remotePath: string }
  | { status: 'failed'; reason: CopyFailure; detail: string };

class CopyError extends Error {
  constructor(
    readonly reason: CopyFailure,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Copies backups to another registered server over SFTP or to an S3 bucket, then reads the copy
 * back and compares its SHA-256 with the backup's: a copy is recorded as made only when the bytes
 * there are the bytes taken. A copy that differs is removed and recorded as failed. Later,
 * `verify` reads a copy again to find one that changed.
 */
@Injectable()
export class BackupCopier {
  constructor(
    private readonly places: CopyPlaces,
    private readonly writer: EventWriter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async copy(backup: BackupDoc, target: OffsiteCopy, ctx: RequestContext): Promise<CopyOutcome> {
    const local = this.localFile(backup);
    const ids = { backupId: backup.id, serviceId: backup.serviceId, serverId: copyPlace(target) };
    let place: CopyPlace | null = null;
    try {
      place = await this.places.forOffsite(target).catch((error: unknown) => {
        throw new CopyError('connect-failed', describe(error));
      });
      const remotePath = place.pathOf(backup.serviceId, backup.id);
      const actual = await place
        .put(local, backup.sizeBytes, remotePath)
        .then(() => digest(place!, remotePath))
        .catch((error: unknown) => {
          throw new CopyError('transfer-failed', describe(error));
        });
      if (actual !== backup.checksum) {
        await place.remove(remotePath).catch(() => undefined);
        throw new CopyError(
          'checksum-mismatch',
          `read back ${actual}, expected ${backup.checksum}`,
        );
      }
      await this.record(
        backup.id,
        BackupCopied({ ...ids, remotePath, checksum: actual, sizeBytes: backup.sizeBytes }),
        ctx,
      );
      return { status: 'copied', remotePath };
    } catch (error) {
      const failure =
        error instanceof CopyError ? error : new CopyError('connect-failed', describe(error));
      await this.record(
        backup.id,
        BackupCopyFailed({ ...ids, reason: failure.reason, detail: failure.message }),
        ctx,
      );
      return { status: 'failed', reason: failure.reason, detail: failure.message };
    } finally {
      place?.close();
    }
  }

  /** Reads the copy again; true when it is still what was copied. */
  async verify(copy: BackupCopyDoc, ctx: RequestContext): Promise<boolean> {
    if (!copy.remotePath || !copy.checksum) return false;
    const ids = { backupId: copy.backupId, serviceId: copy.serviceId, serverId: copy.serverId };
    const remotePath = copy.remotePath;
    // A copy that cannot be read (gone, its place unreachable) is not a copy to count on.
    const actual = await this.places
      .of(copy.serverId)
      .then((place) => digest(place, remotePath).finally(() => place.close()))
      .catch(() => null);
    const intact = actual === copy.checksum;
    await this.record(
      copy.backupId,
      intact
        ? BackupCopyVerified(ids)
        : BackupCopyCorrupted({ ...ids, expected: copy.checksum, actual }),
      ctx,
    );
    return intact;
  }

  /** Deletes the copy (retention removed its backup); recorded even when the file was gone. */
  async remove(copy: BackupCopyDoc, ctx: RequestContext): Promise<void> {
    if (copy.remotePath) {
      const place = await this.places.of(copy.serverId).catch(() => null);
      await place?.remove(copy.remotePath).catch(() => undefined);
      place?.close();
    }
    await this.record(
      copy.backupId,
      BackupCopyRemoved({
        backupId: copy.backupId,
        serviceId: copy.serviceId,
        serverId: copy.serverId,
      }),
      ctx,
    );
  }

  /** The artifact Slipway wrote for the backup; a backup recorded elsewhere cannot be copied. */
  private localFile(backup: BackupDoc): string {
    const root = resolve(this.config.dataDir, 'backups');
    const file = resolve(backup.location);
    if (!file.startsWith(root + sep)) {
      throw conflict('Slipway holds no file of this backup (it was recorded elsewhere)');
    }
    return file;
  }

  private async record(
    backupId: string,
    event: Parameters<EventWriter['append']>[1][number],
    ctx: RequestContext,
  ): Promise<void> {
    await this.writer.append(backupCopiesStream(backupId), [event], 'any', ctx);
  }
}

async function digest(place: CopyPlace, remotePath: string): Promise<string> {
  const hash = createHash('sha256');
  await place.read(remotePath, (chunk) => hash.update(chunk));
  return `sha256:${hash.digest('hex')}`;
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error))
    .replace(/[^\x20-\x7e]/g, ' ')
    .slice(0, 300);
}
