import { conflict, notFound } from '../common/app-error.js';
import type { PendingEvent } from '../eventstore/define-event.js';
import type { Decider, EventLike } from '../storage/decider.js';
import {
  ServerComposePolicySet,
  ServerConnectionChecked,
  ServerHostKeyApproved,
  ServerRegistered,
} from '../events/deployments.events.js';
import {
  ServerDecommissioned,
  ServerHostKeyRepinned,
  ServerServiceAttached,
  ServerServiceDetached,
  ServerUpdated,
} from '../events/lifecycle.events.js';

/** What decisions about one server need. */
export interface ServerFacts {
  serverId: string;
  name: string;
  fingerprint: string;
  approved: boolean;
  composeAllow: string[];
  decommissioned: boolean;
  /**
   * The services attached to this server since attach events exist (those registered before are
   * only known to the services read model).
   */
  attached: readonly string[];
}

export interface ServerState {
  server: ServerFacts | null;
}

export type ServerChange =
  | { kind: 'approveHostKey'; serverId: string; fingerprint: string }
  | { kind: 'setComposePolicy'; serverId: string; allow: string[] }
  | { kind: 'recordCheck'; serverId: string; check: ConnectionCheck }
  | { kind: 'update'; serverId: string; changes: Parameters<typeof ServerUpdated>[0]['changes'] }
  | { kind: 'repinHostKey'; serverId: string; fingerprint: string }
  | {
      kind: 'decommission';
      serverId: string;
      /** Attached services known to be archived (archiving is final), which do not hold it. */
      archived?: readonly string[];
    }
  | { kind: 'attachService'; serverId: string; serviceId: string }
  | { kind: 'detachService'; serverId: string; serviceId: string };

/** A connection check's outcome, as ServerConnectionChecked records it. */
export type ConnectionCheck = Omit<Parameters<typeof ServerConnectionChecked>[0], 'serverId'>;

export type ServerCommand =
  { kind: 'register'; event: Parameters<typeof ServerRegistered>[0] } | ServerChange;

/** The events `evolveServer` reads: each about the server its `serverId` names. */
export const SERVER_FACT_EVENTS = [
  ServerRegistered,
  ServerHostKeyApproved,
  ServerComposePolicySet,
  ServerHostKeyRepinned,
  ServerDecommissioned,
  ServerServiceAttached,
  ServerServiceDetached,
] as const;

/** One server's facts after one of its events (shared with the legacy `fleet` fold). */
export function evolveServer(server: ServerFacts | null, event: EventLike): ServerFacts | null {
  if (event.type === ServerRegistered.type) {
    const d = ServerRegistered.dataOf(event);
    return {
      serverId: d.serverId,
      name: d.name,
      fingerprint: d.hostKeyFingerprint,
      approved: false,
      composeAllow: [],
      decommissioned: false,
      attached: [],
    };
  }
  if (!server) return server;
  if (event.type === ServerServiceAttached.type) {
    const d = ServerServiceAttached.dataOf(event);
    return d.serverId === server.serverId && !server.attached.includes(d.serviceId)
      ? { ...server, attached: [...server.attached, d.serviceId] }
      : server;
  }
  if (event.type === ServerServiceDetached.type) {
    const d = ServerServiceDetached.dataOf(event);
    return d.serverId === server.serverId
      ? { ...server, attached: server.attached.filter((id) => id !== d.serviceId) }
      : server;
  }
  if (event.type === ServerHostKeyRepinned.type) {
    const d = ServerHostKeyRepinned.dataOf(event);
    return d.serverId === server.serverId
      ? { ...server, fingerprint: d.fingerprint, approved: false }
      : server;
  }
  if (event.type === ServerDecommissioned.type) {
    const d = ServerDecommissioned.dataOf(event);
    return d.serverId === server.serverId ? { ...server, decommissioned: true } : server;
  }
  if (event.type === ServerHostKeyApproved.type) {
    const d = ServerHostKeyApproved.dataOf(event);
    return d.serverId === server.serverId ? { ...server, approved: true } : server;
  }
  if (event.type === ServerComposePolicySet.type) {
    const d = ServerComposePolicySet.dataOf(event);
    return d.serverId === server.serverId ? { ...server, composeAllow: d.allow } : server;
  }
  return server;
}

/**
 * The host key pinned at registration (or re-pinned since) must be approved, as pinned, once; a
 * re-pinned key needs that approval again; a decommissioned server takes no change but checks
 * and detachments (and decommissioning again is no event); it is refused while a service it
 * knows of is attached and not archived, and takes no new one; the compose policy
 * records what an owner or admin allowed (a repeat of the same set is no event); a connection
 * check of a known server is recorded as it came out.
 */
export function decideServerChange(
  command: ServerChange,
  server: ServerFacts | null | undefined,
): PendingEvent[] {
  if (!server || server.serverId !== command.serverId) throw notFound('No such server');
  if (command.kind === 'decommission') {
    if (server.decommissioned) return [];
    const archived = new Set(command.archived ?? []);
    const holding = server.attached.filter((id) => !archived.has(id));
    if (holding.length > 0)
      throw conflict('Services still target this server: archive them or move them first', {
        serverId: server.serverId,
        services: holding.slice(0, 20).map((serviceId) => ({ serviceId })),
      });
    return [ServerDecommissioned({ serverId: command.serverId })];
  }
  if (command.kind === 'detachService') {
    // Also on a decommissioned server: letting go never needs the server in service.
    return server.attached.includes(command.serviceId)
      ? [ServerServiceDetached({ serverId: command.serverId, serviceId: command.serviceId })]
      : [];
  }
  if (server.decommissioned && command.kind !== 'recordCheck') {
    throw conflict(`Server ${server.name} is decommissioned`, { serverId: server.serverId });
  }
  if (command.kind === 'update') {
    return Object.keys(command.changes).length
      ? [ServerUpdated({ serverId: command.serverId, changes: command.changes })]
      : [];
  }
  if (command.kind === 'repinHostKey') {
    return command.fingerprint === server.fingerprint
      ? []
      : [
          ServerHostKeyRepinned({
            serverId: command.serverId,
            fingerprint: command.fingerprint,
            previousFingerprint: server.fingerprint,
          }),
        ];
  }
  if (command.kind === 'attachService') {
    return server.attached.includes(command.serviceId)
      ? []
      : [ServerServiceAttached({ serverId: command.serverId, serviceId: command.serviceId })];
  }
  if (command.kind === 'recordCheck')
    return [ServerConnectionChecked({ serverId: command.serverId, ...command.check })];
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
}

export const nameTakenMessage = (name: string) => `A server named ${name} already exists`;

/**
 * One server on the stream of its name (`server-<sha256(name)>`): registering claims the
 * stream, so names stay unique without one stream that every registration contends on.
 */
export const serverDecider: Decider<ServerState, ServerCommand> = {
  initialState: () => ({ server: null }),
  evolve: (state, event) => ({ server: evolveServer(state.server, event) }),
  decide(command, state) {
    if (command.kind !== 'register') return decideServerChange(command, state.server);
    if (state.server) throw conflict(nameTakenMessage(command.event.name));
    return [ServerRegistered(command.event)];
  },
};
