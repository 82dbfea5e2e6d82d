import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { PageInput } from '../../common/page.input.js';
import { principalsPage, type MembersPage } from '../../access/principals-page.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { HUMANS } from '../../kernel/roles.js';
import { PersonalData } from '../../privacy/personal-data.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';

export class Members extends ProcedureQuery<PageInput, MembersPage> {}

@Procedure.read(Members, {
  name: 'members',
  roles: HUMANS,
  scopes: ['members:read'],
  input: PageInput,
  description: 'Users of the team with their roles and status, oldest first.',
})
export class MembersHandler implements IQueryHandler<Members> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly personal: PersonalData,
  ) {}

  execute({ input }: Members): Promise<MembersPage> {
    return principalsPage(this.reads, this.personal, 'user', input);
  }
}
