import type { EdgeCertificateDoc } from '../../../projections/edge-certificates.projection.js';
import {
  EdgeCertificateExpiring,
  EdgeCertificateFailed,
  EdgeCertificateObserved,
  EdgeCertificateStillFailing,
} from '../../events/edge-certificates.events.js';
import type { DomainReading } from './certificate-readings.js';

type CertificateEvent =
  | ReturnType<typeof EdgeCertificateObserved>
  | ReturnType<typeof EdgeCertificateFailed>
  | ReturnType<typeof EdgeCertificateStillFailing>
  | ReturnType<typeof EdgeCertificateExpiring>;

const DAY = 86_400_000;

/**
 * What a look at a domain's certificate adds to what is known of it: a certificate not seen
 * before; a failure when the domain was not failing (one notice per failing spell, however
 * often the proxy retries), or a new reason while it was (shown, not notified); and, once per
 * certificate, that it expires within `warnDays`.
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
  const failure = reading.failure;
  // A failure logged before the certificate now held is history.
  if (failure && !(certificate && failure.at <= certificate.notBefore)) {
    const data = { serverId, domain, reason: failure.reason, failedAt: failure.at };
    if (!failing) events.push(EdgeCertificateFailed(data));
    else if (known?.lastError !== failure.reason) events.push(EdgeCertificateStillFailing(data));
  }
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
