import type { EdgeCertificateDoc } from '../../../projections/edge-certificates.projection.js';
import {
  EdgeCertificateExpiring,
  EdgeCertificateFailed,
  EdgeCertificateObserved,
} from '../../events/edge-certificates.events.js';
import type { DomainReading } from './certificate-readings.js';

type CertificateEvent =
  | ReturnType<typeof EdgeCertificateObserved>
  | ReturnType<typeof EdgeCertificateFailed>
  | ReturnType<typeof EdgeCertificateExpiring>;

const DAY = 86_400_000;

/**
 * What a look at a domain's certificate adds to what is known of it: a certificate not seen
 * before, a failure when the domain was not already failing for the same reason (so a proxy
 * retrying every few minutes is one notice, not one per retry), and, once per certificate, that
 * it expires within `warnDays`.
 */
export function certificateChanges(
  known: EdgeCertificateDoc | null,
  reading: DomainReading,
  at: { serverId: string; domain: string; now: Date; warnDays: number },
): CertificateEvent[] {
  const { serverId, domain } = at;
  const events: CertificateEvent[] = [];
  const certificate = reading.certificate;
  const renewed = certificate && certificate.fingerprint !== known?.fingerprint;
  if (certificate && renewed)
    events.push(EdgeCertificateObserved({ serverId, domain, ...certificate }));
  const failing = renewed ? false : known?.status === 'failing';
  if (
    reading.failure &&
    !(failing && known?.lastError === reading.failure.reason) &&
    // A failure logged before the certificate now held is history.
    !(certificate && reading.failure.at <= certificate.notBefore)
  )
    events.push(
      EdgeCertificateFailed({
        serverId,
        domain,
        reason: reading.failure.reason,
        failedAt: reading.failure.at,
      }),
    );
  if (certificate && (renewed || known?.expiryNoticedFor !== certificate.fingerprint)) {
    const left = Date.parse(certificate.notAfter) - at.now.getTime();
    if (left <= at.warnDays * DAY)
      events.push(
        EdgeCertificateExpiring({
          serverId,
          domain,
          notAfter: certificate.notAfter,
          daysLeft: Math.max(0, Math.floor(left / DAY)),
          fingerprint: certificate.fingerprint,
        }),
      );
  }
  return events;
}
