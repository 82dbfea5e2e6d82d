import { Inject, Injectable } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { conflict } from '../../common/app-error.js';
import { Omittable } from '../../common/omittable.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import type { ServerUpdated } from '../../events/lifecycle.events.js';
import { HostKeyFingerprint, SshPortNumber } from '../deployment-fields.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { ServerStreams } from '../server-streams.js';

export class UpdateServerInput {
  @IsUUID()
  serverId!: string;

  /** Replaces the labels; `[]` clears them. */
  @Omittable()
  @IsArray()
  @ArrayMaxSize(32)
  @Matches(/^[a-z0-9][a-z0-9._-]{0,62}=[^\s=]{0,128}$/, {
    each: true,
    message: 'labels are key=value',
  })
  labels?: string[];

  @Omittable()
  @Matches(/^[a-z_][a-z0-9_-]{0,31}$/, { message: 'sshUser must be a POSIX user name' })
  sshUser?: string;

  @SshPortNumber()
  sshPort?: number;

  /** A new PEM private key; sealed at once, never returned. */
  @Omittable()
  @IsString()
  @Matches(/^-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/, {
    message: 'privateKey must be a PEM private key',
  })
  @MaxLength(16_384)
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

/**
 * Connection settings change at once (one `ServerUpdated`); a new host key is only pinned
 * (`ServerHostKeyRepinned`), and trusted once someone approves it as a new server's would be.
 */
@Injectable()
export class UpdateServerHandler {
  constructor(
    private readonly servers: ServerStreams,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute(input: UpdateServerInput, ctx: RequestContext) {
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
    let status: string | null = null;
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

export class DecommissionServerInput {
  @IsUUID()
  serverId!: string;
}

/**
 * Refused while a service that is not archived targets the server; the server stays, as a state.
 * Decided on the server's stream, where registrations and moves attach their service, so a
 * registration racing this one is either seen or conflicts. Services registered before attach
 * events existed are known only to the services read model: it is asked too.
 */
@Injectable()
export class DecommissionServerHandler {
  constructor(
    private readonly servers: ServerStreams,
    private readonly lookup: DeploymentLookup,
  ) {}

  async execute(input: DecommissionServerInput, ctx: RequestContext) {
    await this.lookup.server(input.serverId);
    const services = (
      await this.lookup.reads
        .collection<ServiceDoc>('services')
        .find({ serverId: input.serverId }, { limit: 1000 })
    ).items;
    const targeting = services.filter((s) => s.status !== 'archived');
    if (targeting.length > 0) {
      throw conflict('Services still target this server: archive them or move them first', {
        serverId: input.serverId,
        services: targeting.slice(0, 20).map((s) => ({ serviceId: s.id, name: s.name })),
      });
    }
    // Archiving is final, so a read model that says archived cannot be undone by a later event:
    // it settles an attachment whose detachment was not written (a crash in between).
    const archived = services.filter((s) => s.status === 'archived').map((s) => s.id);
    const decision = await this.servers.change(
      { kind: 'decommission', serverId: input.serverId, archived },
      ctx,
    );
    return {
      serverId: input.serverId,
      status: 'decommissioned' as const,
      changed: decision.events.length > 0,
    };
  }
}
