import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { ADMINS } from '../../kernel/roles.js';
import { PersonalData } from '../../privacy/personal-data.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { PageInput } from '../../common/page.input.js';
import { principalsPage, type MembersPage } from '../principals-page.js';

export class Agents extends ProcedureQuery<PageInput, MembersPage> {}

@Procedure.read(Agents, {
  name: 'agents',
  roles: ADMINS,
  scopes: ['members:read'],
  input: PageInput,
  description: 'Agent principals, oldest first.',
})
export class AgentsHandler implements IQueryHandler<Agents> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly personal: PersonalData,
  ) {}

  execute({ input }: Agents): Promise<MembersPage> {
    return principalsPage(this.reads, this.personal, 'agent', input);
  }
}
