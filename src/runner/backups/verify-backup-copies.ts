import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import type { BackupCopyDoc } from '../../../projections/backup-copies.projection.js';
import { BackupScheduleServiceInput } from '../../deployments/backup-schedules/backup-schedule.input.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { readAll } from '../../readstore/read-page.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { BackupCopier } from './backup-copier.js';

export interface CopiesChecked {
  checked: number;
  intact: number;
  /** The copies that are not what was copied, each recorded `BackupCopyCorrupted`. */
  corrupted: { backupId: string; serverId: string }[];
}

export class VerifyBackupCopies extends ProcedureCommand<
  BackupScheduleServiceInput,
  CopiesChecked
> {}

@Procedure.command(VerifyBackupCopies, {
  name: 'verifyBackupCopies',
  roles: DEPLOYERS,
  scopes: ['backup:write'],
  input: BackupScheduleServiceInput,
  description:
    'Reads every copy of a service’s backups back from its server and compares its SHA-256 with the backup’s; a copy that changed is recorded (and notified) as corrupted.',
  project: { service: 'serviceId' },
})
export class VerifyBackupCopiesHandler implements ICommandHandler<VerifyBackupCopies> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly lookup: DeploymentLookup,
    private readonly copier: BackupCopier,
  ) {}

  async execute({ input, ctx }: VerifyBackupCopies): Promise<CopiesChecked> {
    await this.lookup.service(input.serviceId);
    const copies = await readAll(this.reads.collection<BackupCopyDoc>('backup_copies'), {
      serviceId: input.serviceId,
    });
    const corrupted: CopiesChecked['corrupted'] = [];
    let checked = 0;
    for (const copy of copies) {
      if (copy.status === 'failed') continue;
      checked += 1;
      if (!(await this.copier.verify(copy, ctx))) {
        corrupted.push({ backupId: copy.backupId, serverId: copy.serverId });
      }
    }
    return { checked, intact: checked - corrupted.length, corrupted };
  }
}
