import {
  EdgeCertificateExpiring,
  EdgeCertificateFailed,
  EdgeCertificateObserved,
  EdgeCertificateStillFailing,
} from '../src/events/edge-certificates.events.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection, type TypedHandler } from './projection.js';

/**
 * `edge_certificates`: one per server and domain routed with TLS whose certificate Slipway has
 * read back from the server's edge proxy (id `<serverId>:<domain>`). `status` is `issued` while
 * the proxy holds a certificate and its last attempt did not fail, `failing` after a failure
 * logged since; the certificate held (if any) stays beside the failure, with its expiry.
 */
export interface EdgeCertificateDoc extends Doc {
  serverId: string;
  domain: string;
  status: 'issued' | 'failing';
  issuer: string | null;
  notBefore: string | null;
  notAfter: string | null;
  serialNumber: string | null;
  fingerprint: string | null;
  /** The CA's answer to the last failed attempt, and when the proxy logged it. */
  lastError: string | null;
  lastErrorAt: string | null;
  /** The fingerprint of the certificate whose coming expiry was notified. */
  expiryNoticedFor: string | null;
  updatedAt: string;
}

export const edgeCertificateId = (serverId: string, domain: string) => `${serverId}:${domain}`;

const blank = (serverId: string, domain: string): EdgeCertificateDoc => ({
  id: edgeCertificateId(serverId, domain),
  serverId,
  domain,
  issuer: null,
  notBefore: null,
  notAfter: null,
  serialNumber: null,
  fingerprint: null,
  lastError: null,
  lastErrorAt: null,
  expiryNoticedFor: null,
  status: 'issued',
  updatedAt: '',
});

type Failure = EventDataOf<typeof EdgeCertificateFailed>;

/** A failure, the first of its spell or a later one: the domain fails, with this reason. */
const failing: TypedHandler<Failure, EdgeCertificateDoc> = {
  collection: 'edge_certificates',
  documentId: (e) => edgeCertificateId(e.data.serverId, e.data.domain),
  evolve: (current, { data, recordedAt }) => ({
    ...(current ?? blank(data.serverId, data.domain)),
    id: edgeCertificateId(data.serverId, data.domain),
    status: 'failing',
    lastError: data.reason,
    lastErrorAt: data.failedAt,
    updatedAt: recordedAt,
  }),
};

export const edgeCertificatesProjection: Projection = {
  name: 'edge-certificates',
  version: 1,
  collections: [
    {
      name: 'edge_certificates',
      indexes: [{ fields: ['serverId'] }, { fields: ['domain'] }, { fields: ['notAfter'] }],
    },
  ],
  handlers: handlersOf(
    on<EventDataOf<typeof EdgeCertificateObserved>, EdgeCertificateDoc>(EdgeCertificateObserved, {
      collection: 'edge_certificates',
      documentId: (e) => edgeCertificateId(e.data.serverId, e.data.domain),
      evolve: (current, { data, recordedAt }) => ({
        ...(current ?? blank(data.serverId, data.domain)),
        id: edgeCertificateId(data.serverId, data.domain),
        status: 'issued',
        issuer: data.issuer,
        notBefore: data.notBefore,
        notAfter: data.notAfter,
        serialNumber: data.serialNumber,
        fingerprint: data.fingerprint,
        updatedAt: recordedAt,
      }),
    }),
    on(EdgeCertificateFailed, failing),
    on(EdgeCertificateStillFailing, failing),
    on<EventDataOf<typeof EdgeCertificateExpiring>, EdgeCertificateDoc>(EdgeCertificateExpiring, {
      collection: 'edge_certificates',
      documentId: (e) => edgeCertificateId(e.data.serverId, e.data.domain),
      evolve: (current, { data, recordedAt }) =>
        current ? { ...current, expiryNoticedFor: data.fingerprint, updatedAt: recordedAt } : null,
    }),
  ),
};
