import { Inject, Injectable } from '@nestjs/common';
import type { ServerDoc } from '../../projections/servers.projection.js';
import { AddressGate } from '../deployments/reach/address-gate.js';
import { pinnedSshTarget } from '../deployments/reach/pinned-target.js';
import { SECRET_BOX } from '../secrets/secret-box.provider.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { SshSession } from './ssh-session.js';

/**
 * SSH sessions to registered servers, for deployments and backups alike: to the address the
 * server address policy allows, with the pinned host key and the server's unsealed private key.
 */
@Injectable()
export class ServerSessions {
  constructor(
    private readonly gate: AddressGate,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async open(server: ServerDoc): Promise<SshSession> {
    return SshSession.connect(await pinnedSshTarget(this.gate, server, (c) => this.box.open(c)));
  }
}
