import { defineEvent } from '../eventstore/define-event.js';

// Stream `server-edge-<serverId>` (beside ServerEdgeSynced): what Slipway read back from a
// server's edge proxy about the certificates it obtains for the domains routed with TLS. Each is
// recorded when it changed, not at every look.

/** A certificate the proxy holds for a domain, newly seen (first issuance or a renewal). */
export const EdgeCertificateObserved = defineEvent<{
  serverId: string;
  domain: string;
  /** The issuer's distinguished name, as the certificate says it. */
  issuer: string;
  notBefore: string;
  notAfter: string;
  serialNumber: string;
  /** SHA-256 of the certificate (DER), colon-separated hex. */
  fingerprint: string;
}>('EdgeCertificateObserved', 1);

/** The proxy could not obtain or renew a domain's certificate; `reason` is the CA's answer. */
export const EdgeCertificateFailed = defineEvent<{
  serverId: string;
  domain: string;
  reason: string;
  /** When the proxy logged the failure. */
  failedAt: string;
}>('EdgeCertificateFailed', 1);

/**
 * A domain already failing failed again for another reason (the CA's answer to another
 * challenge type, say): the read model shows it; channels heard of the failure once already.
 */
export const EdgeCertificateStillFailing = defineEvent<{
  serverId: string;
  domain: string;
  reason: string;
  failedAt: string;
}>('EdgeCertificateStillFailing', 1);

/** A domain's certificate is within SLIPWAY_CERT_EXPIRY_WARN_DAYS of expiring: once per certificate. */
export const EdgeCertificateExpiring = defineEvent<{
  serverId: string;
  domain: string;
  notAfter: string;
  daysLeft: number;
  fingerprint: string;
}>('EdgeCertificateExpiring', 1);
