import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../kernel/request-context.js';
import { ServerStreams } from '../server-streams.js';
import type { SetServerComposePolicyInput } from './compose-policy.inputs.js';

/** Replaces what compose capabilities a server allows; recorded as ServerComposePolicySet. */
@Injectable()
export class SetServerComposePolicyHandler {
  constructor(private readonly servers: ServerStreams) {}

  async execute(
    input: SetServerComposePolicyInput,
    ctx: RequestContext,
  ): Promise<{ serverId: string; allow: string[] }> {
    await this.servers.change(
      { kind: 'setComposePolicy', serverId: input.serverId, allow: input.allow },
      ctx,
    );
    return { serverId: input.serverId, allow: [...new Set(input.allow)].sort() };
  }
}
