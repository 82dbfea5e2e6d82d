import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { BackupDoc } from '../../../projections/backups.projection.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import type { RestoreTestSettings } from '../../events/backup-schedules.events.js';
import { serviceBackupsStream } from '../../events/deployments.events.js';
import { BackupRestoreTestFailed, BackupRestoreTestPassed } from '../../events/restore.events.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { EventWriter } from '../../storage/event-writer.js';
import { ServerSessions } from '../server-sessions.js';
import { verifiedArtifact } from './backup-artifact.js';
import { RESTORE_TEST, VOLUME_RESTORE_TEST } from './volume-scripts.js';

type Failure = Parameters<typeof BackupRestoreTestFailed>[0]['reason'];

export interface RestoreTestOutcome {
  testId: string;
  backupId: string;
  passed: boolean;
  reason: Failure | null;
  exitCode: number | null;
  detail: string | null;
}

/** What a test runs: the settings given, or for a volume's tar, unpacking it. Null: nothing. */
export function testToRun(
  backup: Pick<BackupDoc, 'volume'>,
  settings: Pick<RestoreTestSettings, 'image' | 'command'>,
  helperImage: string,
): { image: string; command: string[] } | null {
  if (settings.image && settings.command)
    return { image: settings.image, command: settings.command };
  if (backup.volume) return { image: helperImage, command: VOLUME_RESTORE_TEST };
  return null;
}

/**
 * Restores a backup into a scratch container, never into the service: the artifact Slipway holds
 * is verified against its checksum first, then sent over SSH to the service's server into a
 * one-shot container (no network, a scratch /restore) running the test command; exit 0 passes.
 * The container is removed at its time limit. Every outcome is recorded on the service's backups
 * (a failure is notified under `backup.failed`).
 */
@Injectable()
export class RestoreTester {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly writer: EventWriter,
    private readonly sessions: ServerSessions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async test(
    backup: BackupDoc,
    run: { image: string; command: string[]; timeLimitSeconds: number },
    ctx: RequestContext,
  ): Promise<RestoreTestOutcome> {
    const testId = randomUUID();
    const about = { testId, backupId: backup.id, serviceId: backup.serviceId, image: run.image };
    const fail = async (reason: Failure, detail: string, exitCode: number | null = null) => {
      await this.writer.append(
        serviceBackupsStream(backup.serviceId),
        [BackupRestoreTestFailed({ ...about, reason, detail, exitCode })],
        'any',
        ctx,
      );
      return { testId, backupId: backup.id, passed: false, reason, exitCode, detail };
    };
    const checked = await verifiedArtifact(backup, this.config.dataDir);
    if (!checked.ok) return fail(checked.reason, checked.detail);
    const service = await this.lookup.service(backup.serviceId);
    let session;
    try {
      session = await this.sessions.open(await this.lookup.server(service.serverId));
    } catch {
      return fail('connect-failed', 'could not connect to the server');
    }
    const name = `slipway-restore-test-${testId}`;
    try {
      const limit = AbortSignal.timeout(run.timeLimitSeconds * 1000);
      const result = await session.exec(
        ['sh', '-c', RESTORE_TEST, 'slipway', name, run.image, ...run.command],
        {
          stdin: checked.artifact,
          // The test's output is the backup's data as often as not: it is neither kept nor
          // answered, so the test gives nobody a way to read a backup.
          onLine: () => undefined,
          signal: limit,
        },
      );
      if (limit.aborted) {
        await session
          .exec(['docker', 'rm', '-f', name], { onLine: () => undefined })
          .catch(() => undefined);
        return fail('timed-out', `stopped after ${run.timeLimitSeconds} s`);
      }
      if (result.code !== 0) {
        return fail('command-failed', `exit ${result.code ?? result.signal}`, result.code);
      }
    } finally {
      session.close();
    }
    await this.writer.append(
      serviceBackupsStream(backup.serviceId),
      [BackupRestoreTestPassed({ ...about, sizeBytes: checked.artifact.length })],
      'any',
      ctx,
    );
    return { testId, backupId: backup.id, passed: true, reason: null, exitCode: 0, detail: null };
  }
}
