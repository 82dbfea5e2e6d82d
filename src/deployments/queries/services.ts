import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { IsIn, IsUUID } from 'class-validator';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { PageCursor, PageLimit } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { READ_STORE, type Page, type ReadStore } from '../../readstore/read-store.port.js';
import { inProjects, readPage, whereGiven } from '../../readstore/read-page.js';
import { serviceView, type ServiceView } from '../deployment-views.js';

export class ServicesInput {
  @PageLimit(100)
  limit?: number;

  @PageCursor()
  cursor?: string;

  @Omittable()
  @IsUUID()
  serverId?: string;

  @Omittable()
  @IsIn(['active', 'archived'])
  status?: 'active' | 'archived';
}

export class Services extends ProcedureQuery<ServicesInput, Page<ServiceView>> {}

/** Services from the read model, oldest first and paged; secret env values masked. */
@Procedure.read(Services, {
  name: 'services',
  roles: EVERYONE,
  readModelsOnly: true,
  projectList: true,
  scopes: ['service:read'],
  input: ServicesInput,
  description:
    'Services oldest first (limit 1-100, default 20, cursor; serverId?, status active|archived); secret env values masked.',
})
export class ServicesHandler implements IQueryHandler<Services> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ input, ctx }: Services): Promise<Page<ServiceView>> {
    const filter = {
      ...whereGiven({ serverId: input.serverId, status: input.status }),
      ...inProjects(ctx.readableProjects),
    };
    return readPage(
      this.reads.collection<ServiceDoc>('services'),
      { filter, sort: { registeredAt: 1 }, defaultLimit: 20 },
      input,
      serviceView,
    );
  }
}
