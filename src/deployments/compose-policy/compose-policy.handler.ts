import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { RequestContext } from '../../access/request-context.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { FLEET_STREAM } from '../deployments.events.js';
import { fleetDecider } from '../fleet.decider.js';
import type { SetServerComposePolicyInput } from './compose-policy.inputs.js';

export class SetServerComposePolicyCommand extends Command<{ serverId: string; allow: string[] }> {
  constructor(
    readonly input: SetServerComposePolicyInput,
    readonly ctx: RequestContext,
  ) {
    super();
  }
}

/** Replaces what compose capabilities a server allows; recorded as ServerComposePolicySet. */
@CommandHandler(SetServerComposePolicyCommand)
export class SetServerComposePolicyHandler implements ICommandHandler<SetServerComposePolicyCommand> {
  constructor(private readonly runner: DeciderRunner) {}

  async execute({ input, ctx }: SetServerComposePolicyCommand) {
    await this.runner.run(
      FLEET_STREAM,
      fleetDecider,
      { kind: 'setComposePolicy', serverId: input.serverId, allow: input.allow },
      ctx,
      50,
    );
    return { serverId: input.serverId, allow: [...new Set(input.allow)].sort() };
  }
}
