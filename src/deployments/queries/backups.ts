import { ServicesInProjects } from '../services-in-projects.js';
import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import type { BackupDoc } from '../../../projections/backups.projection.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { READ_STORE, type Page, type ReadStore } from '../../readstore/read-store.port.js';
import { readPage } from '../../readstore/read-page.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { ServicePageInput } from '../service-page.input.js';

/** A recorded backup as it is read: where it is, its checksum and size, when it was taken. */
const VIEW_FIELDS = [
  'id',
  'serviceId',
  'location',
  'checksum',
  'sizeBytes',
  'takenAt',
  'scheduled',
  'volume',
  'lastRestoreTest',
] as const;

export type BackupView = Pick<BackupDoc, (typeof VIEW_FIELDS)[number]>;

function backupView(backup: BackupDoc): BackupView {
  const view = Object.fromEntries(VIEW_FIELDS.map((field) => [field, backup[field]]));
  return {
    ...(view as BackupView),
    // Absent from documents folded before schedules existed: taken by hand.
    scheduled: backup.scheduled ?? false,
    volume: backup.volume ?? null,
    lastRestoreTest: backup.lastRestoreTest ?? null,
  };
}

export class Backups extends ProcedureQuery<ServicePageInput, Page<BackupView>> {}

/** Recorded backups, newest first; of one service when it is named (which must exist). */
@Procedure.read(Backups, {
  name: 'backups',
  roles: EVERYONE,
  scopes: ['service:read'],
  projectList: true,
  input: ServicePageInput,
  description:
    'Recorded backups, newest first: {serviceId?, limit 1-100 (20), cursor?}; `scheduled` marks those a backup schedule took (its retention may delete them), `volume` the named volume a backup is a tar of, `lastRestoreTest` how its latest test restore went.',
})
export class BackupsHandler implements IQueryHandler<Backups> {
  constructor(
    private readonly inProjects: ServicesInProjects,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly lookup: DeploymentLookup,
  ) {}

  async execute({ input, ctx }: Backups): Promise<Page<BackupView>> {
    if (input.serviceId) await this.lookup.service(input.serviceId);
    const filter = await this.inProjects.filter(ctx.readableProjects, input.serviceId);
    return readPage(
      this.reads.collection<BackupDoc>('backups'),
      { filter, sort: { takenAt: -1 }, defaultLimit: 20 },
      input,
      backupView,
    );
  }
}
