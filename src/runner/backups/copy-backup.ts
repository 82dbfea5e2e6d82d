import type { ICommandHandler } from '@nestjs/cqrs';
import { AccessService, type AccessTarget } from '../../access/access.service.js';
import { conflict } from '../../common/app-error.js';
import {
  CopyBackupInput,
  offsiteOf,
} from '../../deployments/backup-schedules/backup-schedule.input.js';
import { copyPlace } from '../../events/backup-schedules.events.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { BackupCopier } from './backup-copier.js';
import { copyFailureFor, remotePathFor } from '../../deployments/backup-schedules/copy-views.js';

const COPY_BACKUP = {
  roles: DEPLOYERS,
  scopes: ['backup:write'],
} as const satisfies Pick<AccessTarget, 'roles' | 'scopes'>;

export class CopyBackup extends ProcedureCommand<
  CopyBackupInput,
  { backupId: string; place: string; remotePath: string }
> {}

@Procedure.command(CopyBackup, {
  name: 'copyBackup',
  ...COPY_BACKUP,
  input: CopyBackupInput,
  description:
    'Copies a backup Slipway took to a directory on another registered server over SFTP, or to an S3 target, then reads it back: recorded as copied only when its SHA-256 matches the backup’s.',
  project: { backup: 'backupId' },
})
export class CopyBackupHandler implements ICommandHandler<CopyBackup> {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly copier: BackupCopier,
    private readonly access: AccessService,
  ) {}

  async execute({ input, ctx }: CopyBackup) {
    const backup = await this.lookup.backup(input.backupId);
    const offsite = offsiteOf(input, 'serverId');
    if ('serverId' in offsite) {
      const server = await this.lookup.server(offsite.serverId);
      // The copies' server may be another project's: writing there is judged there too.
      await this.access.alsoIn({ name: 'copyBackup', ...COPY_BACKUP }, ctx, { server: server.id });
    }
    const outcome = await this.copier.copy(backup, offsite, ctx);
    if (outcome.status === 'failed') {
      const detail = copyFailureFor(outcome.reason, outcome.detail, ctx);
      throw conflict(`The copy failed (${outcome.reason}): ${detail}`, { reason: outcome.reason });
    }
    const remotePath = remotePathFor(outcome.remotePath, ctx);
    return { backupId: backup.id, place: copyPlace(offsite), remotePath };
  }
}
