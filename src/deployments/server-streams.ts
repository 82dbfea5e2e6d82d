import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../kernel/request-context.js';
import { conflict } from '../common/app-error.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { DeploymentLookup } from './deployment-lookup.js';
import { FLEET_STREAM, ServerRegistered, serverStream } from '../events/deployments.events.js';
import { fleetDecider, fleetHasName } from './fleet.decider.js';
import { nameTakenMessage, serverDecider, type ServerChange } from './server.decider.js';

/**
 * Where a server's facts are written: the stream of its name, or, for a server registered
 * before servers had their own streams, the legacy `fleet` stream (which no longer grows by
 * registrations, so folding it stays as cheap as its cached state).
 */
@Injectable()
export class ServerStreams {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly lookup: DeploymentLookup,
  ) {}

  async register(event: Parameters<typeof ServerRegistered>[0], ctx: RequestContext) {
    if (fleetHasName(await this.runner.load(FLEET_STREAM, fleetDecider), event.name)) {
      throw conflict(nameTakenMessage(event.name));
    }
    // Claiming the name's stream is the uniqueness check: a concurrent claim makes the append
    // conflict, and the retry finds the name taken.
    await this.runner.run(
      serverStream(event.name),
      serverDecider,
      { kind: 'register', event },
      ctx,
    );
  }

  async change(command: ServerChange, ctx: RequestContext) {
    // Names never change, so the read model's name finds the stream; the stream's own facts
    // (not the read model) decide.
    const { name } = await this.lookup.server(command.serverId);
    const stream = serverStream(name);
    const own = await this.runner.load(stream, serverDecider);
    return own.server?.serverId === command.serverId
      ? this.runner.run(stream, serverDecider, command, ctx, 50)
      : this.runner.run(FLEET_STREAM, fleetDecider, command, ctx, 50);
  }
}
