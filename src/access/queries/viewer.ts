import type { IQueryHandler } from '@nestjs/cqrs';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { describeCaller, type CallerDescription } from '../describe-caller.js';

export class Viewer extends ProcedureQuery<undefined, CallerDescription> {}

@Procedure.read(Viewer, {
  name: 'viewer',
  roles: EVERYONE,
  scopes: [],
  mfaExempt: true,
  description:
    'The calling identity: principal, auth method, effective scopes, token metadata, session.',
  ownOnly: true,
})
export class ViewerHandler implements IQueryHandler<Viewer> {
  execute({ ctx }: Viewer): Promise<CallerDescription> {
    return Promise.resolve(describeCaller(ctx));
  }
}
