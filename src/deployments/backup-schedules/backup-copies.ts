import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import type { BackupCopyDoc } from '../../../projections/backup-copies.projection.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { READ_STORE, type DocFields, type ReadStore } from '../../readstore/read-store.port.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { BackupScheduleServiceInput } from './backup-schedule.input.js';
import { copyFor } from './copy-views.js';

export type BackupCopyView = Omit<DocFields<BackupCopyDoc>, 'id'>;

export class BackupCopies extends ProcedureQuery<
  BackupScheduleServiceInput,
  { copies: BackupCopyView[] }
> {}

const MAX_COPIES = 1000;

@Procedure.read(BackupCopies, {
  name: 'backupCopies',
  roles: EVERYONE,
  scopes: ['service:read'],
  input: BackupScheduleServiceInput,
  description:
    'The copies of a service’s backups on other servers: where, status (copied, failed, corrupted), why, and when last read back.',
  project: { service: 'serviceId' },
})
export class BackupCopiesHandler implements IQueryHandler<BackupCopies> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly lookup: DeploymentLookup,
  ) {}

  async execute({ input, ctx }: BackupCopies) {
    await this.lookup.service(input.serviceId);
    const { items } = await this.reads
      .collection<BackupCopyDoc>('backup_copies')
      .find({ serviceId: input.serviceId }, { sort: { id: 1 }, limit: MAX_COPIES });
    return { copies: items.map(({ id: _id, ...copy }) => copyFor(copy, ctx)) };
  }
}
