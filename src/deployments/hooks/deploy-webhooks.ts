import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import type { DeployHookDoc } from '../../../projections/deploy-hooks.projection.js';
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
import { DeployHooks, type DeployHookView } from './deploy-hooks.js';

export class DeployWebhooksInput {
  @Omittable()
  @IsUUID()
  serviceId?: string;

  @PageLimit(100)
  limit?: number;

  @PageCursor()
  cursor?: string;
}

export class DeployWebhooks extends ProcedureQuery<DeployWebhooksInput, Page<DeployHookView>> {}

/** Hooks, newest first; of one service when it is named (which must exist). Never secrets. */
@Procedure.read(DeployWebhooks, {
  name: 'deployWebhooks',
  roles: EVERYONE,
  scopes: ['service:read'],
  input: DeployWebhooksInput,
  description: 'Deploy hooks (URL, rules, status), newest first; never their secrets.',
})
export class DeployWebhooksHandler implements IQueryHandler<DeployWebhooks> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly lookup: DeploymentLookup,
    private readonly hooks: DeployHooks,
  ) {}

  async execute({ input }: DeployWebhooks): Promise<Page<DeployHookView>> {
    const filter: Filter = {};
    if (input.serviceId) {
      await this.lookup.service(input.serviceId);
      filter.serviceId = input.serviceId;
    }
    const page = await this.reads
      .collection<DeployHookDoc>('deploy_hooks')
      .find(filter, { sort: { createdAt: -1 }, limit: input.limit ?? 50, cursor: input.cursor });
    return { items: page.items.map((d) => this.hooks.view(d)), nextCursor: page.nextCursor };
  }
}
