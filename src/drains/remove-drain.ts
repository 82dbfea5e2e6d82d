import type { ICommandHandler } from '@nestjs/cqrs';
import { drainStream } from '../events/drains.events.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureCommand } from '../kernel/procedure-message.js';
import { ADMINS } from '../kernel/roles.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { drainDecider } from './drain.decider.js';
import { DrainIdInput } from './drain.input.js';

export class RemoveDrain extends ProcedureCommand<
  DrainIdInput,
  { drainId: string; removed: true }
> {}

@Procedure.command(RemoveDrain, {
  name: 'removeDrain',
  roles: ADMINS,
  scopes: ['notifications:manage'],
  input: DrainIdInput,
  description:
    'Removes a drain: it ships nothing more. Configuring the same id again starts afresh.',
})
export class RemoveDrainHandler implements ICommandHandler<RemoveDrain> {
  constructor(private readonly runner: DeciderRunner) {}

  async execute({ input, ctx }: RemoveDrain) {
    await this.runner.run(
      drainStream(input.drainId),
      drainDecider,
      { kind: 'remove', drainId: input.drainId },
      ctx,
    );
    return { drainId: input.drainId, removed: true as const };
  }
}
