import { unlink } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BackupScheduleDoc } from '../../../projections/backup-schedules.projection.js';
import type { BackupDoc } from '../../../projections/backups.projection.js';
import type { BackupCopyDoc } from '../../../projections/backup-copies.projection.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { errorForLog } from '../../common/log-text.js';
import { PeriodicPass } from '../../common/periodic-pass.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { toPrune } from '../../deployments/backup-schedules/retention.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import {
  BackupPruned,
  ScheduledBackupClaimed,
  ScheduledBackupFinished,
  scheduledBackupStream,
} from '../../events/backup-schedules.events.js';
import { serviceBackupsStream } from '../../events/deployments.events.js';
import { WrongExpectedRevisionError } from '../../eventstore/wrong-expected-revision.error.js';
import { systemContext, type RequestContext } from '../../kernel/request-context.js';
import { readAll } from '../../readstore/read-page.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { EventWriter } from '../../storage/event-writer.js';
import { dueSchedules, embeddedRunnerPollMs } from '../due-schedules.js';
import { BackupCopier } from './backup-copier.js';
import { RestoreTester, testToRun } from './restore-tester.js';
import { TriggerBackup, TriggerBackupHandler } from './trigger-backup.js';

const logger = new Logger('Backups');
const MAX_SCHEDULES = 1000;

/**
 * Takes the backups services' schedules make due, in the runner's process, then applies their
 * retention. Each due time is claimed on its own stream (`backup-run-<service>@<time>`), so
 * runners in several processes take it once; a time missed while no runner ran is not made up
 * but for the latest. The backup is the service's own backup command (`triggerBackup`, as the
 * system), then each named volume the schedule names (a tar of it, each its own backup); a
 * failure is recorded and notified as any backup's. A backup taken is copied to the schedule's
 * offsite place (read back and checked) and, if the schedule says so, test-restored into a
 * scratch container. Retention, per source, deletes only backups a schedule took, never the
 * newest: their copies first, then each backup's record and file.
 */
@Injectable()
export class BackupScheduler extends PeriodicPass {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly writer: EventWriter,
    private readonly backups: TriggerBackupHandler,
    private readonly copier: BackupCopier,
    private readonly lookup: DeploymentLookup,
    private readonly tester: RestoreTester,
  ) {
    super();
  }

  protected override intervalMs(): number {
    return embeddedRunnerPollMs(this.config);
  }

  /** A pass now (tests move their clock, then call it). */
  override async pass(): Promise<void> {
    const schedules = dueSchedules(
      this.reads.collection<BackupScheduleDoc>('backup_schedules'),
      { filter: { enabled: true }, limit: MAX_SCHEDULES, since: (s) => s.setAt },
      this.clock.now(),
    );
    for await (const { schedule, due } of schedules) {
      try {
        await this.take(schedule, due);
      } catch (error) {
        logger.warn(`A scheduled backup of ${schedule.id} failed: ${errorForLog(error)}`);
      }
    }
  }

  private async take(schedule: BackupScheduleDoc, due: Date): Promise<void> {
    const serviceId = schedule.id;
    const stream = scheduledBackupStream(serviceId, due);
    const scheduledFor = due.toISOString();
    const ctx = systemContext(`backup-schedule:${serviceId}`);
    try {
      await this.writer.append(
        stream,
        [ScheduledBackupClaimed({ serviceId, scheduledFor })],
        'no_stream',
        ctx,
      );
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) return; // another runner took it
      throw error;
    }
    // The backup command's output (null), then each named volume: each its own backup.
    const sources = [...(schedule.command ? [null] : []), ...schedule.volumes];
    let taken = 0;
    for (const volume of sources) {
      let backupId: string | null = null;
      try {
        const input = volume ? { serviceId, volume } : { serviceId };
        backupId = (await this.backups.execute(new TriggerBackup(input, ctx))).backupId;
      } catch (error) {
        // Recorded (BackupFailed) and notified by the backup itself.
        logger.warn(`Scheduled backup of ${serviceId} failed: ${errorForLog(error)}`);
      }
      await this.writer.append(
        stream,
        [ScheduledBackupFinished({ serviceId, scheduledFor, backupId })],
        'any',
        ctx,
      );
      if (!backupId) continue;
      taken++;
      const backup = await this.lookup.backup(backupId);
      if (schedule.offsite) await this.copier.copy(backup, schedule.offsite, ctx);
      await this.testRestore(schedule, backup, ctx);
    }
    if (taken > 0) await this.prune(schedule, ctx);
  }

  /** The schedule's restore test of a backup it took, recorded (and notified if it fails). */
  private async testRestore(
    schedule: BackupScheduleDoc,
    backup: BackupDoc,
    ctx: RequestContext,
  ): Promise<void> {
    if (!schedule.restoreTest) return;
    const run = testToRun(backup, schedule.restoreTest, this.config.volumeHelperImage);
    if (!run) return;
    await this.tester.test(
      backup,
      { ...run, timeLimitSeconds: schedule.restoreTest.timeLimitSeconds },
      ctx,
    );
  }

  private async prune(schedule: BackupScheduleDoc, ctx: RequestContext): Promise<void> {
    const items = await readAll(this.reads.collection<BackupDoc>('backups'), {
      serviceId: schedule.id,
      scheduled: true,
    });
    const byId = new Map(items.map((b) => [b.id, b]));
    const root = resolve(this.config.dataDir, 'backups');
    // Retention keeps each source's own: the command's output, and each volume's tars.
    const sources = new Map<string, BackupDoc[]>();
    for (const b of items) {
      const key = b.volume ?? '';
      sources.set(key, [...(sources.get(key) ?? []), b]);
    }
    const pruned = [...sources.values()].flatMap((group) =>
      toPrune(group, schedule.retention, schedule.timezone),
    );
    for (const { id } of pruned) {
      const backup = byId.get(id)!;
      const copies = await readAll(this.reads.collection<BackupCopyDoc>('backup_copies'), {
        backupId: id,
      });
      for (const copy of copies) await this.copier.remove(copy, ctx);
      await this.writer.append(
        serviceBackupsStream(schedule.id),
        [BackupPruned({ serviceId: schedule.id, backupId: id, location: backup.location })],
        'any',
        ctx,
      );
      // Only files Slipway wrote itself, under its backups directory.
      const file = resolve(backup.location);
      if (file.startsWith(root + sep)) await unlink(file).catch(() => undefined);
    }
  }
}
