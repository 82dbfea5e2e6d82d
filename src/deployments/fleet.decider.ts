import { conflict, notFound } from '../common/app-error.js';
import type { Decider, EventLike } from '../storage/decider.js';
import {
  ServerComposePolicySet,
  ServerHostKeyApproved,
  ServerRegistered,
} from './deployments.events.js';

export interface FleetState {
  servers: Map<
    string,
    { name: string; fingerprint: string; approved: boolean; composeAllow: string[] }
  >;
}

export type FleetCommand =
  | { kind: 'register'; event: Parameters<typeof ServerRegistered>[0] }
  | { kind: 'approveHostKey'; serverId: string; fingerprint: string }
  | { kind: 'setComposePolicy'; serverId: string; allow: string[] };

/**
 * Servers: unique names; the host key pinned at registration must be approved, as pinned; the
 * compose policy records what an owner or admin allowed (a repeat of the same set is no event).
 */
export const fleetDecider: Decider<FleetState, FleetCommand> = {
  initialState: () => ({ servers: new Map() }),
  evolve(state: FleetState, event: EventLike): FleetState {
    const servers = new Map(state.servers);
    const d = event.data as Record<string, unknown>;
    if (event.type === ServerRegistered.type) {
      servers.set(String(d.serverId), {
        name: String(d.name),
        fingerprint: String(d.hostKeyFingerprint),
        approved: false,
        composeAllow: [],
      });
    } else if (event.type === ServerHostKeyApproved.type) {
      const s = servers.get(String(d.serverId));
      if (s) servers.set(String(d.serverId), { ...s, approved: true });
    } else if (event.type === ServerComposePolicySet.type) {
      const s = servers.get(String(d.serverId));
      if (s) servers.set(String(d.serverId), { ...s, composeAllow: d.allow as string[] });
    }
    return { servers };
  },
  decide(command: FleetCommand, state: FleetState) {
    if (command.kind === 'register') {
      const taken = [...state.servers.values()].some((s) => s.name === command.event.name);
      if (taken) throw conflict(`A server named ${command.event.name} already exists`);
      return [ServerRegistered(command.event)];
    }
    const server = state.servers.get(command.serverId);
    if (!server) throw notFound('No such server');
    if (command.kind === 'setComposePolicy') {
      const allow = [...new Set(command.allow)].sort();
      const same = allow.join(',') === [...server.composeAllow].sort().join(',');
      return same ? [] : [ServerComposePolicySet({ serverId: command.serverId, allow })];
    }
    if (server.fingerprint !== command.fingerprint) {
      throw conflict('The fingerprint does not match the host key pinned at registration', {
        pinned: server.fingerprint,
      });
    }
    return server.approved
      ? []
      : [ServerHostKeyApproved({ serverId: command.serverId, fingerprint: command.fingerprint })];
  },
};
