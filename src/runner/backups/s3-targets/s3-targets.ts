import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import type { S3TargetDoc } from '../../../../projections/s3-targets.projection.js';
import { Procedure } from '../../../kernel/procedure.js';
import { ProcedureQuery } from '../../../kernel/procedure-message.js';
import { ADMINS, DEPLOYERS } from '../../../kernel/roles.js';
import { READ_STORE, type DocFields, type ReadStore } from '../../../readstore/read-store.port.js';

export type S3TargetView = Omit<DocFields<S3TargetDoc>, 'id'> & { targetId: string };

/** Targets are few (one per bucket): the list is not paged. */
async function targetDocs(reads: ReadStore): Promise<S3TargetDoc[]> {
  const { items } = await reads
    .collection<S3TargetDoc>('s3_targets')
    .find({}, { sort: { id: 1 }, limit: 100 });
  return items;
}

export class S3Targets extends ProcedureQuery<undefined, { targets: S3TargetView[] }> {}

@Procedure.read(S3Targets, {
  name: 's3Targets',
  roles: ADMINS,
  scopes: ['service:read'],
  description:
    'The S3 buckets backups can be copied to, with endpoint, region, bucket, prefix and access key id (never the secret).',
})
export class S3TargetsHandler implements IQueryHandler<S3Targets> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute() {
    const items = await targetDocs(this.reads);
    return { targets: items.map(({ id, ...target }) => ({ targetId: id, ...target })) };
  }
}

/** What choosing a target needs: no endpoint, bucket or key id. */
export interface S3TargetName {
  targetId: string;
  displayName: string;
}

export class S3TargetNames extends ProcedureQuery<undefined, { targets: S3TargetName[] }> {}

/**
 * Those who set backup schedules choose where copies go; the full targets stay with owners and
 * admins, who configure them.
 */
@Procedure.read(S3TargetNames, {
  name: 's3TargetNames',
  roles: DEPLOYERS,
  scopes: ['backup:write'],
  description:
    'The S3 targets backups can be copied to, by id and name only: what a backup schedule names.',
})
export class S3TargetNamesHandler implements IQueryHandler<S3TargetNames> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute() {
    const items = await targetDocs(this.reads);
    return { targets: items.map(({ id, displayName }) => ({ targetId: id, displayName })) };
  }
}
