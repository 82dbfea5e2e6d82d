import type { Decider } from '../storage/decider.js';
import { ServerRegistered } from '../events/deployments.events.js';
import {
  decideServerChange,
  evolveServer,
  SERVER_FACT_EVENTS,
  type ServerChange,
  type ServerFacts,
} from './server.decider.js';

export interface FleetState {
  servers: Map<string, ServerFacts>;
}

/** Whether a server registered on the legacy `fleet` stream holds this name. */
export const fleetHasName = (state: FleetState, name: string) =>
  [...state.servers.values()].some((s) => s.name === name);

/**
 * The `fleet` stream of stores written before servers had their own streams: it no longer
 * takes registrations, but its servers keep their history there, so their later changes are
 * decided (by the same rules as a server's own stream) and recorded there too.
 */
export const fleetDecider: Decider<FleetState, ServerChange> = {
  initialState: () => ({ servers: new Map() }),
  evolve(state, event) {
    const about = SERVER_FACT_EVENTS.find((definition) => definition.type === event.type);
    if (!about) return state;
    const serverId = about.dataOf(event).serverId;
    const before = event.type === ServerRegistered.type ? null : state.servers.get(serverId);
    if (before === undefined) return state;
    const servers = new Map(state.servers);
    servers.set(serverId, evolveServer(before, event)!);
    return { servers };
  },
  decide: (command, state) => decideServerChange(command, state.servers.get(command.serverId)),
};
