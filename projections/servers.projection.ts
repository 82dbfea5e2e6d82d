import { DEFAULT_PROJECT, ResourceMovedToProject } from '../src/events/projects.events.js';
import {
  ServerComposePolicySet,
  ServerConnectionChecked,
  ServerHostKeyApproved,
  ServerRegistered,
} from '../src/events/deployments.events.js';
import {
  ServerDecommissioned,
  ServerHostKeyRepinned,
  ServerUpdated,
} from '../src/events/lifecycle.events.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/**
 * `servers`: `{id, name, host, sshPort, sshUser, hostKeyFingerprint, hostKeyApproved, labels,
 * status: "pending-host-key"|"ready"|"decommissioned", credentialCiphertext, updatedAt,
 * decommissionedAt, registeredAt, registeredBy,
 * composePolicy: {allow: string[], setAt, setBy}, lastCheck: {at, mode, ok, latencyMs} | null}`.
 * The credential is sealed (AES-GCM) and is never returned by a read procedure.
 * `composePolicy.allow` lists the compose capabilities an owner or admin allowed on the server
 * (see src/deployments/compose-policy); [] by default. `lastCheck` is the latest connection check
 * (`login` or `handshake`, see src/deployments/reach/server-reach.ts), without the cause of a
 * failure (the event has it, for the audit trail).
 */
export interface ServerDoc extends Doc {
  name: string;
  /** The project it belongs to (`default` unless registered in or moved to another). */
  projectId: string;
  host: string;
  sshPort: number;
  sshUser: string;
  hostKeyFingerprint: string;
  hostKeyApproved: boolean;
  labels: Record<string, string>;
  status: 'pending-host-key' | 'ready' | 'decommissioned';
  credentialCiphertext: string;
  registeredAt: string;
  /** Last change of connection settings or host key (absent before version 4). */
  updatedAt?: string | null;
  decommissionedAt?: string | null;
  registeredBy: string | null;
  composePolicy: { allow: string[]; setAt: string | null; setBy: string | null };
  lastCheck: {
    at: string;
    mode: 'login' | 'handshake';
    ok: boolean;
    latencyMs: number | null;
  } | null;
}

export const serversProjection: Projection = {
  name: 'servers',
  version: 5,
  collections: [{ name: 'servers', indexes: [{ fields: ['name'] }, { fields: ['projectId'] }] }],
  handlers: handlersOf(
    on<EventDataOf<typeof ResourceMovedToProject>, ServerDoc>(ResourceMovedToProject, {
      collection: 'servers',
      documentId: (e) => (e.data.kind === 'server' ? e.data.resourceId : null),
      evolve: (c, { data, recordedAt }) =>
        c ? { ...c, projectId: data.to, updatedAt: recordedAt } : null,
    }),
    on<EventDataOf<typeof ServerRegistered>, ServerDoc>(ServerRegistered, {
      collection: 'servers',
      documentId: (e) => e.data.serverId,
      evolve: (_c, { data, recordedAt, metadata }) => ({
        id: data.serverId,
        name: data.name,
        projectId: data.projectId ?? DEFAULT_PROJECT,
        host: data.host,
        sshPort: data.sshPort,
        sshUser: data.sshUser,
        hostKeyFingerprint: data.hostKeyFingerprint,
        hostKeyApproved: false,
        labels: data.labels,
        status: 'pending-host-key',
        credentialCiphertext: data.credentialCiphertext,
        registeredAt: recordedAt,
        registeredBy: metadata.actor.principalId,
        composePolicy: { allow: [], setAt: null, setBy: null },
        lastCheck: null,
        updatedAt: null,
        decommissionedAt: null,
      }),
    }),
    on<EventDataOf<typeof ServerUpdated>, ServerDoc>(ServerUpdated, {
      collection: 'servers',
      documentId: (e) => e.data.serverId,
      evolve: (c, { data, recordedAt }) =>
        c ? { ...c, ...data.changes, updatedAt: recordedAt } : null,
    }),
    on<EventDataOf<typeof ServerHostKeyRepinned>, ServerDoc>(ServerHostKeyRepinned, {
      collection: 'servers',
      documentId: (e) => e.data.serverId,
      evolve: (c, { data, recordedAt }) =>
        c
          ? {
              ...c,
              hostKeyFingerprint: data.fingerprint,
              hostKeyApproved: false,
              status: 'pending-host-key',
              updatedAt: recordedAt,
            }
          : null,
    }),
    on<EventDataOf<typeof ServerDecommissioned>, ServerDoc>(ServerDecommissioned, {
      collection: 'servers',
      documentId: (e) => e.data.serverId,
      evolve: (c, { recordedAt }) =>
        c ? { ...c, status: 'decommissioned', decommissionedAt: recordedAt } : null,
    }),
    on<EventDataOf<typeof ServerHostKeyApproved>, ServerDoc>(ServerHostKeyApproved, {
      collection: 'servers',
      documentId: (e) => e.data.serverId,
      evolve: (c) => (c ? { ...c, hostKeyApproved: true, status: 'ready' } : null),
    }),
    on<EventDataOf<typeof ServerConnectionChecked>, ServerDoc>(ServerConnectionChecked, {
      collection: 'servers',
      documentId: (e) => e.data.serverId,
      evolve: (c, { data, recordedAt }) =>
        c
          ? {
              ...c,
              lastCheck: {
                at: recordedAt,
                mode: data.mode,
                ok: data.ok,
                latencyMs: data.latencyMs,
              },
            }
          : null,
    }),
    on<EventDataOf<typeof ServerComposePolicySet>, ServerDoc>(ServerComposePolicySet, {
      collection: 'servers',
      documentId: (e) => e.data.serverId,
      evolve: (c, e) =>
        c
          ? {
              ...c,
              composePolicy: {
                allow: e.data.allow,
                setAt: e.recordedAt,
                setBy: e.metadata.actor.principalId,
              },
            }
          : null,
    }),
  ),
};
