import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import type { ServerUpdated } from '../../events/lifecycle.events.js';
import {
  HostKeyFingerprint,
  PrivateKeyPem,
  ServerLabels,
  SshPortNumber,
  SshUser,
} from '../deployment-fields.js';
import { ServerStreams } from '../server-streams.js';

export class UpdateServerInput {
  @IsUUID()
  serverId!: string;

  /** Replaces the labels; `[]` clears them. */
  @ServerLabels()
  labels?: string[];

  @Omittable()
  @SshUser()
  sshUser?: string;

  @SshPortNumber()
  sshPort?: number;

  /** A new PEM private key; sealed at once, never returned. */
  @Omittable()
  @PrivateKeyPem()
  privateKey?: string;

  /**
   * A new host key fingerprint to pin (after `scanServerHostKey`): the server is
   * `pending-host-key` until `approveServerHostKey` repeats it.
   */
  @Omittable()
  @HostKeyFingerprint()
  hostKeyFingerprint?: string;
}

type ServerChanges = Parameters<typeof ServerUpdated>[0]['changes'];

export interface UpdateServerAnswer {
  serverId: string;
  /** The fields this call set; empty when it changed nothing. */
  updated: string[];
  /** `pending-host-key` when a new host key was pinned; otherwise null. */
  status: 'pending-host-key' | null;
}

export class UpdateServer extends ProcedureCommand<UpdateServerInput, UpdateServerAnswer> {}

/**
 * Connection settings change at once (one `ServerUpdated`); a new host key is only pinned
 * (`ServerHostKeyRepinned`), and trusted once someone approves it as a new server's would be.
 */
@Procedure.command(UpdateServer, {
  name: 'updateServer',
  roles: DEPLOYERS,
  scopes: ['server:write'],
  input: UpdateServerInput,
  description:
    'Changes a server’s labels, SSH user, port or private key (sealed, never returned); a new hostKeyFingerprint is pinned and the server is pending-host-key until approveServerHostKey repeats it.',
  project: { server: 'serverId' },
})
export class UpdateServerHandler implements ICommandHandler<UpdateServer> {
  constructor(
    private readonly servers: ServerStreams,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute({ input, ctx }: UpdateServer): Promise<UpdateServerAnswer> {
    const changes: ServerChanges = {};
    if (input.labels !== undefined)
      changes.labels = Object.fromEntries(
        input.labels.map((l) => l.split('=', 2) as [string, string]),
      );
    if (input.sshUser !== undefined) changes.sshUser = input.sshUser;
    if (input.sshPort !== undefined) changes.sshPort = input.sshPort;
    if (input.privateKey !== undefined)
      changes.credentialCiphertext = this.box.seal(input.privateKey);
    const updated: string[] = [];
    if (Object.keys(changes).length > 0) {
      const decision = await this.servers.change(
        { kind: 'update', serverId: input.serverId, changes },
        ctx,
      );
      if (decision.events.length > 0)
        updated.push(
          ...Object.keys(changes).map((k) => (k === 'credentialCiphertext' ? 'privateKey' : k)),
        );
    }
    let status: UpdateServerAnswer['status'] = null;
    if (input.hostKeyFingerprint !== undefined) {
      const decision = await this.servers.change(
        { kind: 'repinHostKey', serverId: input.serverId, fingerprint: input.hostKeyFingerprint },
        ctx,
      );
      if (decision.events.length > 0) {
        updated.push('hostKeyFingerprint');
        status = 'pending-host-key';
      }
    }
    return { serverId: input.serverId, updated: updated.sort(), status };
  }
}
