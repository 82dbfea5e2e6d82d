import { drainStream } from '../events/drains.events.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureCommand } from '../kernel/procedure-message.js';
import { ADMINS } from '../kernel/roles.js';
import { decides } from '../storage/deciding-handler.js';
import { drainDecider } from './drain.decider.js';
import { DrainIdInput } from './drain.input.js';

export class RemoveDrain extends ProcedureCommand<
  DrainIdInput,
  { drainId: string; removed: true }
> {}

/** Removing a drain stops the audit trail's copy in the team's tools: as configuring it takes. */
@Procedure.command(RemoveDrain, {
  name: 'removeDrain',
  roles: ADMINS,
  scopes: ['notifications:manage', 'audit:read'],
  input: DrainIdInput,
  description:
    'Removes a drain: it ships nothing more. Configuring the same id again starts afresh.',
})
export class RemoveDrainHandler extends decides(drainDecider).removes(
  RemoveDrain,
  'drainId',
  drainStream,
) {}
