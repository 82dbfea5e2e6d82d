import type { Doc } from '../src/readstore/read-store.port.js';
import type { Projection } from './projection.js';

/**
 * `servers`: `{id, name, host, sshPort, sshUser, hostKeyFingerprint, hostKeyApproved, labels,
 * status: "pending-host-key"|"ready", credentialCiphertext, registeredAt, registeredBy,
 * composePolicy: {allow: string[], setAt, setBy}}`. The credential is sealed (AES-GCM) and is
 * never returned by a read procedure. `composePolicy.allow` lists the compose capabilities an
 * owner or admin allowed on the server (see src/deployments/compose-policy); [] by default.
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
  composePolicy: { allow: string[]; setAt: string | null; setBy: string | null };
}

export const serversProjection: Projection = {
  name: 'servers',
  version: 2,
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
          composePolicy: { allow: [], setAt: null, setBy: null },
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
    ServerComposePolicySet: [
      {
        collection: 'servers',
        documentId: (e) => String(e.data.serverId),
        evolve: (c, e) =>
          c
            ? {
                ...c,
                composePolicy: {
                  allow: e.data.allow as string[],
                  setAt: e.recordedAt,
                  setBy: e.metadata.actor.principalId,
                },
              }
            : null,
      },
    ],
  },
};
