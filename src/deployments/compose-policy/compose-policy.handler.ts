import { Injectable } from '@nestjs/common';
import { ArrayMaxSize, ArrayUnique, IsArray, IsIn, IsUUID } from 'class-validator';
import type { RequestContext } from '../../kernel/request-context.js';
import { ServerStreams } from '../server-streams.js';
import { COMPOSE_CAPABILITY_NAMES } from './compose-capabilities.js';

export class SetServerComposePolicyInput {
  @IsUUID()
  serverId!: string;

  /** The complete list of allowed capabilities (replaces the previous one; [] refuses all). */
  @IsArray()
  @ArrayMaxSize(COMPOSE_CAPABILITY_NAMES.length)
  @ArrayUnique()
  @IsIn(COMPOSE_CAPABILITY_NAMES, {
    each: true,
    message: `allow lists capabilities among: ${COMPOSE_CAPABILITY_NAMES.join(', ')}`,
  })
  allow!: string[];
}

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
