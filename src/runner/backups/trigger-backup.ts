import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import { IsUUID, Matches } from 'class-validator';
import { Omittable } from '../../common/omittable.js';
import { assertNamedVolume } from '../../deployments/compose-volumes.js';
import { composeProject } from '../../deployments/compose-project.js';
import { VOLUME_BACKUP } from './volume-scripts.js';
import type { RequestContext } from '../../kernel/request-context.js';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import { conflict } from '../../common/app-error.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import { BackupRecorded, serviceBackupsStream } from '../../events/deployments.events.js';
import { EventWriter } from '../../storage/event-writer.js';
import {
  GENERIC_FAILURES,
  seesConnectionDetails,
} from '../../deployments/reach/connection-failures.js';
import { ServerSessions } from '../server-sessions.js';
import { BackupFailed } from '../../events/restore.events.js';
import type { SshSession } from '../ssh-session.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';

export class TriggerBackupInput {
  @IsUUID()
  serviceId!: string;

  /** A named volume of the service's compose file: a tar of it instead of the backup command. */
  @Omittable()
  @Matches(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$/, { message: 'volume is a volume name' })
  volume?: string;
}

export interface TakenBackup {
  backupId: string;
  location: string;
  checksum: string;
  sizeBytes: number;
  takenAt: string;
  volume: string | null;
}

export class TriggerBackup extends ProcedureCommand<TriggerBackupInput, TakenBackup> {}

/**
 * Runs a service's backup command on its server and streams the output into
 * `<data dir>/backups/<service>/<backup>.bak` (mode 0600), computing SHA-256 and size from the
 * stream itself, then records BackupRecorded.
 */
@Procedure.command(TriggerBackup, {
  name: 'triggerBackup',
  roles: DEPLOYERS,
  scopes: ['backup:write'],
  input: TriggerBackupInput,
  description:
    "Runs the service's backup command over SSH, or tars one of its compose file's named volumes (`volume`); records location, SHA-256 and size.",
  project: { service: 'serviceId' },
})
export class TriggerBackupHandler implements ICommandHandler<TriggerBackup> {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly writer: EventWriter,
    private readonly sessions: ServerSessions,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ input, ctx }: TriggerBackup): Promise<TakenBackup> {
    const service = await this.lookup.service(input.serviceId);
    const volume = input.volume ?? null;
    if (volume) assertNamedVolume(service.compose, volume, 'volume');
    else if (!service.backupCommand) throw conflict('The service defines no backup command');
    const command = volume
      ? [
          'sh',
          '-c',
          VOLUME_BACKUP,
          'slipway',
          composeProject(service.name, service.environment),
          volume,
          this.config.volumeHelperImage,
        ]
      : ['sh', '-c', service.backupCommand!];
    const server = await this.lookup.server(service.serverId);
    if (!server.hostKeyApproved)
      throw conflict(`Approve the host key of server ${server.name} first`);
    const session = await this.connect(server, ctx, service.id);
    const backupId = randomUUID();
    const dir = join(this.config.dataDir, 'backups', service.id);
    const location = join(dir, `${backupId}.bak`);
    const hash = createHash('sha256');
    let sizeBytes = 0;
    const stderr: string[] = [];
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const file = createWriteStream(location, { mode: 0o600 });
      const result = await session.exec(command, {
        onStdoutData: (chunk) => {
          hash.update(chunk);
          sizeBytes += chunk.length;
          file.write(chunk);
        },
        onLine: (_stream, text) => stderr.push(text),
      });
      await new Promise<void>((resolve, reject) =>
        file.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
      if (result.code !== 0) {
        await this.recordFailure(
          service.id,
          'command-failed',
          `exit ${result.code ?? result.signal}`,
          result.code,
          ctx,
        );
        throw conflict(`The backup command failed (exit ${result.code ?? result.signal})`, {
          stderr: stderr.slice(-20),
        });
      }
    } finally {
      session.close();
    }
    const taken = {
      backupId,
      location,
      checksum: `sha256:${hash.digest('hex')}`,
      sizeBytes,
      takenAt: this.clock.now().toISOString(),
      volume,
    };
    await this.writer.append(
      serviceBackupsStream(service.id),
      [BackupRecorded({ serviceId: service.id, ...taken })],
      'any',
      ctx,
    );
    return taken;
  }

  /** `BackupFailed` on the service's backups stream, for the audit trail and notifications. */
  private async recordFailure(
    serviceId: string,
    reason: 'connect-failed' | 'command-failed',
    detail: string,
    exitCode: number | null,
    ctx: RequestContext,
  ): Promise<void> {
    await this.writer.append(
      serviceBackupsStream(serviceId),
      [BackupFailed({ serviceId, reason, detail, exitCode })],
      'any',
      ctx,
    );
  }

  /** One answer for every connection failure, unless the caller is an owner or admin. */
  private async connect(
    server: ServerDoc,
    ctx: RequestContext,
    serviceId: string,
  ): Promise<SshSession> {
    try {
      return await this.sessions.open(server);
    } catch (error) {
      await this.recordFailure(
        serviceId,
        'connect-failed',
        'could not connect to the server',
        null,
        ctx,
      );
      const detail = error instanceof Error ? error.message : String(error);
      throw conflict(
        seesConnectionDetails(ctx)
          ? `Could not connect to the server: ${detail}`
          : `The backup ${GENERIC_FAILURES.connect}`,
      );
    }
  }
}
