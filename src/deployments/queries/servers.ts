import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { IsIn } from 'class-validator';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import { PageCursor, PageLimit } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { READ_STORE, type Page, type ReadStore } from '../../readstore/read-store.port.js';
import { inProjects, readPage, whereGiven } from '../../readstore/read-page.js';
import { serverView, type ServerView } from '../deployment-views.js';

export class ServersInput {
  @PageLimit(100)
  limit?: number;

  @PageCursor()
  cursor?: string;

  @Omittable()
  @IsIn(['pending-host-key', 'ready', 'decommissioned'])
  status?: 'pending-host-key' | 'ready' | 'decommissioned';
}

export class Servers extends ProcedureQuery<ServersInput, Page<ServerView>> {}

/** Servers from the read model, oldest first and paged; never a key or its ciphertext. */
@Procedure.read(Servers, {
  name: 'servers',
  roles: EVERYONE,
  readModelsOnly: true,
  projectList: true,
  scopes: ['server:read'],
  input: ServersInput,
  description:
    'Servers oldest first (limit 1-100, default 20, cursor; status pending-host-key|ready|decommissioned); never a key.',
})
export class ServersHandler implements IQueryHandler<Servers> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute({ input, ctx }: Servers): Promise<Page<ServerView>> {
    const filter = { ...whereGiven({ status: input.status }), ...inProjects(ctx.readableProjects) };
    return readPage(
      this.reads.collection<ServerDoc>('servers'),
      { filter, sort: { registeredAt: 1 }, defaultLimit: 20 },
      input,
      serverView,
    );
  }
}
