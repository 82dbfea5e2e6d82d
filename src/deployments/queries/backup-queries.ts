import { Inject, Injectable } from '@nestjs/common';
import { IsUUID } from 'class-validator';
import type { BackupDoc } from '../../../projections/backups.projection.js';
import { PageCursor, PageLimit } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import { READ_STORE, type Filter, type ReadStore } from '../../readstore/read-store.port.js';
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

/** Recorded backups, newest first; of one service when it is named (which must exist). */
@Injectable()
export class BackupsHandler {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly lookup: DeploymentLookup,
  ) {}

  async execute(input: BackupsInput) {
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
