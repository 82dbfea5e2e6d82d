import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../kernel/request-context.js';
import { LegacyProcedure as Procedure } from '../../kernel/procedure.js';
import { OPERATORS } from '../../kernel/roles.js';
import { ArchiveServiceHandler, ArchiveServiceInput } from './archive-service.handler.js';

@Injectable()
export class ArchiveProcedures {
  constructor(private readonly archiveServiceHandler: ArchiveServiceHandler) {}

  @Procedure.command({
    name: 'archiveService',
    roles: OPERATORS,
    scopes: ['service:write'],
    input: ArchiveServiceInput,
    description:
      'Archives a service (a state; its history stays): new deployments and changes are refused. Refused while a deployment is queued or running. composeDown: also runs docker compose down for it on its server over SSH (outcome recorded and answered).',
  })
  archiveService(input: ArchiveServiceInput, ctx: RequestContext) {
    return this.archiveServiceHandler.execute(input, ctx);
  }
}
