import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Omittable } from '../../common/omittable.js';
import { ProjectFacts } from '../../projects/project-facts.js';
import { ProjectId } from '../../projects/project.input.js';
import type { ICommandHandler } from '@nestjs/cqrs';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { badRequest } from '../../common/app-error.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import {
  Host,
  HostKeyFingerprint,
  PrivateKeyPem,
  ServerLabels,
  SlugName,
  SshPortNumber,
  SshUser,
} from '../deployment-fields.js';
import { AddressGate } from '../reach/address-gate.js';
import { ServerStreams } from '../server-streams.js';

export class RegisterServerInput {
  @SlugName()
  name!: string;

  @Host()
  host!: string;

  @SshPortNumber()
  sshPort?: number;

  @SshUser()
  sshUser!: string;

  /** PEM private key; stored sealed, never returned. */
  @PrivateKeyPem()
  privateKey!: string;

  @HostKeyFingerprint()
  hostKeyFingerprint!: string;

  @ServerLabels()
  labels?: string[];

  /** The project to place it in (absent: the default project). */
  @Omittable()
  @ProjectId()
  projectId?: string;
}

export interface RegisteredServerAnswer {
  serverId: string;
  name: string;
  status: string;
  hostKeyFingerprint: string;
}

export class RegisterServer extends ProcedureCommand<RegisterServerInput, RegisteredServerAnswer> {}

/** The private key is sealed at once; the host key fingerprint is pinned, to be approved. */
@Procedure.command(RegisterServer, {
  name: 'registerServer',
  roles: DEPLOYERS,
  scopes: ['server:write'],
  input: RegisterServerInput,
  description:
    'Registers a server: SSH target, sealed private key, pinned host key fingerprint (to approve).',
  project: { project: 'projectId' },
})
export class RegisterServerHandler implements ICommandHandler<RegisterServer> {
  constructor(
    private readonly servers: ServerStreams,
    private readonly gate: AddressGate,
    private readonly projects: ProjectFacts,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute({ input, ctx }: RegisterServer): Promise<RegisteredServerAnswer> {
    const refusal = await this.gate.refusal(input.host);
    if (refusal)
      throw badRequest('The server address is refused', [{ path: 'host', message: refusal }]);
    const projectId = await this.projects.placeIn(input.projectId);
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
      projectId,
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
