import type { ICommandHandler } from '@nestjs/cqrs';
import { ArrayMaxSize, ArrayUnique, IsArray, IsIn, IsUUID } from 'class-validator';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { ADMINS } from '../../kernel/roles.js';
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

export class SetServerComposePolicy extends ProcedureCommand<
  SetServerComposePolicyInput,
  { serverId: string; allow: string[] }
> {}

/**
 * Replaces what compose capabilities a server allows; recorded as ServerComposePolicySet.
 * Owner/admin only, and the presenting credential must carry server:write (a token narrows):
 * allowing root-equivalent compose on a server is a decision above an operator's.
 */
@Procedure.command(SetServerComposePolicy, {
  name: 'setServerComposePolicy',
  roles: ADMINS,
  scopes: ['server:write'],
  input: SetServerComposePolicyInput,
  description:
    'Owner/admin: the compose capabilities a server allows (privileged, hostNetwork, dockerSocket, ...); replaces the list, [] refuses all.',
  project: { server: 'serverId' },
})
export class SetServerComposePolicyHandler implements ICommandHandler<SetServerComposePolicy> {
  constructor(private readonly servers: ServerStreams) {}

  async execute({
    input,
    ctx,
  }: SetServerComposePolicy): Promise<{ serverId: string; allow: string[] }> {
    await this.servers.change(
      { kind: 'setComposePolicy', serverId: input.serverId, allow: input.allow },
      ctx,
    );
    return { serverId: input.serverId, allow: [...new Set(input.allow)].sort() };
  }
}
