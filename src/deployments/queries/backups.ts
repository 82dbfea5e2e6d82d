import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import type { BackupDoc } from '../../../projections/backups.projection.js';
import { PageCursor, PageLimit } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import {
  READ_STORE,
  type Filter,
  type Page,
  type ReadStore,
} from '../../readstore/read-store.port.js';
import { DeploymentLookup } from '../deployment-lookup.js';

export class BackupsInput {
  @Omittable()
  @IsUUID()
  serviceId?: string;

  @PageLimit(100)
  limit?: number;

  @PageCursor()
  cursor?: string;
}

/** A recorded backup as it is read: where it is, its checksum and size, when it was taken. */
export type BackupView = Pick<
  BackupDoc,
  'id' | 'serviceId' | 'location' | 'checksum' | 'sizeBytes' | 'takenAt'
>;

export class Backups extends ProcedureQuery<BackupsInput, Page<BackupView>> {}

/** Recorded backups, newest first; of one service when it is named (which must exist). */
@Procedure.read(Backups, {
  name: 'backups',
  roles: EVERYONE,
  scopes: ['service:read'],
  input: BackupsInput,
  description: 'Recorded backups, newest first: {serviceId?, limit 1-100 (20), cursor?}.',
})
export class BackupsHandler implements IQueryHandler<Backups> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly lookup: DeploymentLookup,
  ) {}

  async execute({ input }: Backups): Promise<Page<BackupView>> {
    const filter: Filter = {};
    if (input.serviceId) {
      await this.lookup.service(input.serviceId);
      filter.serviceId = input.serviceId;
    }
    const page = await this.reads
      .collection<BackupDoc>('backups')
      .find(filter, { sort: { takenAt: -1 }, limit: input.limit ?? 20, cursor: input.cursor });
    return {
      items: page.items.map(({ id, serviceId, location, checksum, sizeBytes, takenAt }) => ({
        id,
        serviceId,
        location,
        checksum,
        sizeBytes,
        takenAt,
      })),
      nextCursor: page.nextCursor,
    };
  }
}
