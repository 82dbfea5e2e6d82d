import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import type { BackupDoc } from '../../../projections/backups.projection.js';
import { conflict } from '../../common/app-error.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { restoreBasis } from '../../deployments/approval-payload.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import { StreamFacts } from '../../deployments/facts/stream-facts.js';
import { assertServiceActive } from '../../deployments/lifecycle/lifecycle-rules.js';
import {
  RestoreFailed,
  RestoreStarted,
  RestoreSucceeded,
  restoreStream,
} from '../../events/restore.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { EventWriter } from '../../storage/event-writer.js';
import { WrongExpectedRevisionError } from '../../eventstore/wrong-expected-revision.error.js';
import { composeProject } from '../../deployments/compose-project.js';
import { ServerSessions } from '../server-sessions.js';
import { verifiedArtifact } from './backup-artifact.js';
import { VOLUME_RESTORE } from './volume-scripts.js';

export class RestoreBackupInput {
  @IsUUID()
  backupId!: string;

  /** The approved `restore` request for this backup (requestApproval, then approveRequest). */
  @IsUUID()
  approvalId!: string;
}

type Failure = Parameters<typeof RestoreFailed>[0]['reason'];

export interface RestoreOutcome {
  restoreId: string;
  backupId: string;
  serviceId: string;
  status: 'succeeded' | 'failed';
  reason: Failure | null;
  exitCode: number | null;
}

export class RestoreBackup extends ProcedureCommand<RestoreBackupInput, RestoreOutcome> {}

/**
 * Runs an approved restore: only within its request's lifetime and while the service's server
 * and restore command are those the request froze (what its approver saw; else `409`, `reason:
 * "stale"`). The artifact Slipway holds is read and its SHA-256 compared with the recorded
 * checksum before anything reaches the server (a mismatch is refused, `409`, and recorded); then
 * the service's restore command runs over SSH with the artifact on its standard input. Every
 * outcome is an event on `restore-<approvalId>`, whose first event claims the approval: one
 * approval, one restore.
 */
@Procedure.command(RestoreBackup, {
  name: 'restoreBackup',
  roles: DEPLOYERS,
  scopes: ['backup:write'],
  input: RestoreBackupInput,
  description:
    "Runs an approved restore (approvalId of an approved restore request for this backup, used once, within the request's lifetime, while the service's server and restore command are those it froze, else 409 reason \"stale\"): verifies the artifact's SHA-256 (a mismatch is refused and recorded), then runs the service's restore command over SSH with the artifact on stdin (a volume's backup replaces the volume's content, its containers stopped meanwhile); the outcome is recorded.",
  project: { backup: 'backupId' },
})
export class RestoreBackupHandler implements ICommandHandler<RestoreBackup> {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly facts: StreamFacts,
    private readonly writer: EventWriter,
    private readonly sessions: ServerSessions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, ctx }: RestoreBackup): Promise<RestoreOutcome> {
    const backup = await this.lookup.backup(input.backupId);
    const service = await this.facts.service(backup.serviceId);
    assertServiceActive(service);
    if (!backup.volume && !service.restoreCommand) {
      throw conflict('The service defines no restore command');
    }
    await this.assertApproved(input, backup, service);
    const server = await this.lookup.server(service.serverId);
    if (!server.hostKeyApproved)
      throw conflict(`Approve the host key of server ${server.name} first`);
    const restoreId = randomUUID();
    const stream = restoreStream(input.approvalId);
    try {
      await this.writer.append(
        stream,
        [
          RestoreStarted({
            restoreId,
            approvalId: input.approvalId,
            backupId: backup.id,
            serviceId: service.id,
            serverId: server.id,
          }),
        ],
        'no_stream',
        ctx,
      );
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError)
        throw conflict('This approval was already used for a restore', {
          approvalId: input.approvalId,
        });
      throw error;
    }
    // What the outcome event and the answer both name first.
    const about = { restoreId, backupId: backup.id, serviceId: service.id };
    const fail = async (reason: Failure, detail: string, exitCode: number | null = null) => {
      await this.writer.append(
        stream,
        [RestoreFailed({ ...about, reason, detail, exitCode })],
        'any',
        ctx,
      );
      return { ...about, status: 'failed' as const, reason, exitCode };
    };

    const checked = await verifiedArtifact(backup, this.config.dataDir);
    if (!checked.ok) {
      await fail(checked.reason, checked.detail);
      if (checked.reason === 'artifact-unavailable') {
        throw conflict('Slipway does not hold this backup’s artifact', { restoreId });
      }
      throw conflict('The artifact does not match its recorded checksum: nothing was restored', {
        restoreId,
        expected: checked.expected,
        actual: checked.actual,
      });
    }
    const { artifact } = checked;
    let session;
    try {
      session = await this.sessions.open(server);
    } catch {
      return fail('connect-failed', 'could not connect to the server');
    }
    try {
      const command = backup.volume
        ? [
            'sh',
            '-c',
            VOLUME_RESTORE,
            'slipway',
            composeProject(service.name, service.environment),
            backup.volume,
            this.config.volumeHelperImage,
          ]
        : ['sh', '-c', service.restoreCommand!];
      const result = await session.exec(command, {
        stdin: artifact,
        onLine: () => undefined,
      });
      if (result.code !== 0)
        return fail('command-failed', `exit ${result.code ?? result.signal}`, result.code);
    } finally {
      session.close();
    }
    await this.writer.append(
      stream,
      [RestoreSucceeded({ ...about, sizeBytes: artifact.length })],
      'any',
      ctx,
    );
    return {
      ...about,
      status: 'succeeded',
      reason: null,
      exitCode: 0,
    };
  }

  /** An approved `restore` request for exactly this backup, in its lifetime, not stale. */
  private async assertApproved(
    input: RestoreBackupInput,
    backup: BackupDoc,
    service: ServiceDoc,
  ): Promise<void> {
    const approval = await this.lookup.approval(input.approvalId);
    if (
      approval.action !== 'restore' ||
      approval.serviceId !== backup.serviceId ||
      approval.payload.backupId !== backup.id
    ) {
      throw conflict('The approval is not for restoring this backup', {
        approvalId: approval.id,
      });
    }
    if (approval.status !== 'approved') {
      throw conflict(`The restore request is ${approval.status}, not approved`, {
        approvalId: approval.id,
      });
    }
    if (this.clock.now().toISOString() >= approval.expiresAt) {
      throw conflict('The restore request expired: file it again', { approvalId: approval.id });
    }
    if (approval.payload.basis !== restoreBasis(service, backup.volume ?? null)) {
      throw conflict(
        'The service’s server or restore command changed since this restore was requested: file it again',
        { reason: 'stale', approvalId: approval.id },
      );
    }
  }
}
