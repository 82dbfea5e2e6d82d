import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import type { S3TargetDoc } from '../../../../projections/s3-targets.projection.js';
import { Procedure } from '../../../kernel/procedure.js';
import { ProcedureQuery } from '../../../kernel/procedure-message.js';
import { ADMINS } from '../../../kernel/roles.js';
import { READ_STORE, type DocFields, type ReadStore } from '../../../readstore/read-store.port.js';

export type S3TargetView = Omit<DocFields<S3TargetDoc>, 'id'> & { targetId: string };

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
    const { items } = await this.reads
      .collection<S3TargetDoc>('s3_targets')
      .find({}, { sort: { id: 1 }, limit: 100 });
    return { targets: items.map(({ id, ...target }) => ({ targetId: id, ...target })) };
  }
}
