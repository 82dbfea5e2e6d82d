import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { RequestContext } from '../../kernel/request-context.js';
import { badRequest } from '../../common/app-error.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import type { ApproveServerHostKeyInput, RegisterServerInput } from '../deployments.inputs.js';
import { AddressGate } from '../reach/address-gate.js';
import { ServerStreams } from '../server-streams.js';

export class RegisterServerCommand extends Command<{
  serverId: string;
  name: string;
  status: string;
  hostKeyFingerprint: string;
}> {
  constructor(
    readonly input: RegisterServerInput,
    readonly ctx: RequestContext,
  ) {
    super();
  }
}

export class ApproveServerHostKeyCommand extends Command<{ serverId: string; status: 'ready' }> {
  constructor(
    readonly input: ApproveServerHostKeyInput,
    readonly ctx: RequestContext,
  ) {
    super();
  }
}

/** The private key is sealed at once; the host key fingerprint is pinned, to be approved. */
@CommandHandler(RegisterServerCommand)
export class RegisterServerHandler implements ICommandHandler<RegisterServerCommand> {
  constructor(
    private readonly servers: ServerStreams,
    private readonly gate: AddressGate,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute({ input, ctx }: RegisterServerCommand) {
    const refusal = await this.gate.refusal(input.host);
    if (refusal)
      throw badRequest('The server address is refused', [{ path: 'host', message: refusal }]);
    const serverId = randomUUID();
    const labels = Object.fromEntries(
      (input.labels ?? []).map((l) => l.split('=', 2) as [string, string]),
    );
    const event = {
      serverId,
      name: input.name,
      host: input.host,
      sshPort: input.sshPort ?? 22,
      sshUser: input.sshUser,
      credentialCiphertext: this.box.seal(input.privateKey),
      hostKeyFingerprint: input.hostKeyFingerprint,
      labels,
    };
    await this.servers.register(event, ctx);
    return {
      serverId,
      name: input.name,
      status: 'pending-host-key',
      hostKeyFingerprint: input.hostKeyFingerprint,
    };
  }
}

@CommandHandler(ApproveServerHostKeyCommand)
export class ApproveServerHostKeyHandler implements ICommandHandler<ApproveServerHostKeyCommand> {
  constructor(private readonly servers: ServerStreams) {}

  async execute({ input, ctx }: ApproveServerHostKeyCommand) {
    await this.servers.change({ kind: 'approveHostKey', ...input }, ctx);
    return { serverId: input.serverId, status: 'ready' as const };
  }
}
