import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { RequestContext } from '../../kernel/request-context.js';
import { ServerStreams } from '../server-streams.js';
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
  constructor(private readonly servers: ServerStreams) {}

  async execute({ input, ctx }: SetServerComposePolicyCommand) {
    await this.servers.change(
      { kind: 'setComposePolicy', serverId: input.serverId, allow: input.allow },
      ctx,
    );
    return { serverId: input.serverId, allow: [...new Set(input.allow)].sort() };
  }
}
