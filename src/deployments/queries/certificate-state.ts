import {
  edgeCertificateId,
  type EdgeCertificateDoc,
} from '../../../projections/edge-certificates.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import type { ReadStore } from '../../readstore/read-store.port.js';
import { routeTls } from '../routes/route-rules.js';

/**
 * A TLS domain's certificate as last read back from its server's edge proxy: `pending` until
 * the proxy held one or failed to obtain one.
 */
export interface CertificateState {
  domain: string;
  status: 'pending' | 'issued' | 'failing';
  issuer: string | null;
  notBefore: string | null;
  notAfter: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
}

/** The certificates of a service's domains routed with TLS, in the routes' order. */
export async function certificatesOf(
  reads: ReadStore,
  service: Pick<ServiceDoc, 'serverId' | 'routes'>,
): Promise<CertificateState[]> {
  const domains = [
    ...new Set(
      (service.routes ?? []).filter((r) => routeTls(r).tls === 'auto').map((r) => r.domain),
    ),
  ];
  const docs = reads.collection<EdgeCertificateDoc>('edge_certificates');
  return Promise.all(
    domains.map(async (domain) => {
      const doc = await docs.get(edgeCertificateId(service.serverId, domain));
      return {
        domain,
        status: doc?.status ?? 'pending',
        issuer: doc?.issuer ?? null,
        notBefore: doc?.notBefore ?? null,
        notAfter: doc?.notAfter ?? null,
        lastError: doc?.lastError ?? null,
        lastErrorAt: doc?.lastErrorAt ?? null,
      };
    }),
  );
}
