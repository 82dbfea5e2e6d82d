import type { Doc } from '../src/readstore/read-store.port.js';
import type { Projection } from './projection.js';

/**
 * `servers`: `{id, name, host, sshPort, sshUser, hostKeyFingerprint, hostKeyApproved, labels,
 * status: "pending-host-key"|"ready", credentialCiphertext, registeredAt, registeredBy}`. The
 * credential is sealed (AES-GCM) and is never returned by a read procedure.
 */
export interface ServerDoc extends Doc {
  name: string;
  host: string;
  sshPort: number;
  sshUser: string;
  hostKeyFingerprint: string;
  hostKeyApproved: boolean;
  labels: Record<string, string>;
  status: 'pending-host-key' | 'ready';
  credentialCiphertext: string;
  registeredAt: string;
  registeredBy: string | null;
}

export const serversProjection: Projection = {
  name: 'servers',
  version: 1,
  collections: [{ name: 'servers', indexes: [{ fields: ['name'] }] }],
  handlers: {
    ServerRegistered: [
      {
        collection: 'servers',
        documentId: (e) => String(e.data.serverId),
        evolve: (_c, e): ServerDoc => ({
          id: String(e.data.serverId),
          name: String(e.data.name),
          host: String(e.data.host),
          sshPort: Number(e.data.sshPort),
          sshUser: String(e.data.sshUser),
          hostKeyFingerprint: String(e.data.hostKeyFingerprint),
          hostKeyApproved: false,
          labels: e.data.labels as Record<string, string>,
          status: 'pending-host-key',
          credentialCiphertext: String(e.data.credentialCiphertext),
          registeredAt: e.recordedAt,
          registeredBy: e.metadata.actor.principalId,
        }),
      },
    ],
    ServerHostKeyApproved: [
      {
        collection: 'servers',
        documentId: (e) => String(e.data.serverId),
        evolve: (c) => (c ? { ...c, hostKeyApproved: true, status: 'ready' } : null),
      },
    ],
  },
};
