import { X509Certificate } from 'node:crypto';

/** A certificate the proxy holds, as read from its storage. */
export interface HeldCertificate {
  issuer: string;
  notBefore: string;
  notAfter: string;
  serialNumber: string;
  fingerprint: string;
}

/** What the proxy's storage and log say about one domain. */
export interface DomainReading {
  certificate: HeldCertificate | null;
  /** The last failure logged after the last success, if any. */
  failure: { reason: string; at: string } | null;
}

/** Separates the parts of the observation script's output. */
export const READING_MARK = '== ';
export const LOG_MARK = '== log';

/** An ACME problem type, in what the CA answered (RFC 8555, section 6.7). */
const ACME_PROBLEM = /urn:ietf:params:acme:error:/;
const STORED = /\/certificates\/[^/]+\/([^/]+)\/[^/]+\.crt$/;
const PEM = /-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+?-----END CERTIFICATE-----/;

/** Control characters and the like out of text another program wrote. */
const printable = (text: string) => text.replace(/[^\x20-\x7e]+/g, ' ').trim();

/**
 * The same failure in the same words from one attempt to the next: each attempt names its own
 * challenge token and order, authorization and challenge URLs, which are left out.
 */
const stable = (reason: string) =>
  reason
    .replace(/(\/\.well-known\/acme-challenge\/)[A-Za-z0-9_-]+/g, '$1…')
    .replace(/(https:\/\/[^/\s"()]+)\/[^\s"()]+/g, '$1/…');

function held(pem: string): HeldCertificate | null {
  const block = PEM.exec(pem)?.[0];
  if (!block) return null;
  try {
    const x509 = new X509Certificate(block);
    return {
      issuer: printable(x509.issuer.replace(/\n/g, ', ')).slice(0, 300),
      notBefore: new Date(x509.validFrom).toISOString(),
      notAfter: new Date(x509.validTo).toISOString(),
      serialNumber: x509.serialNumber.slice(0, 128),
      fingerprint: x509.fingerprint256,
    };
  } catch {
    return null;
  }
}

interface LogEntry {
  level?: unknown;
  ts?: unknown;
  msg?: unknown;
  identifier?: unknown;
  error?: unknown;
}

/**
 * Reads the observation script's output: each stored certificate file (`== <path>` then its
 * PEM; the newest of a domain's when several CAs issued one), then Caddy's JSON log lines that
 * name an identifier (its `tls.obtain` and ACME client entries). A domain fails when an error
 * was logged for it after the last success; its reason is the CA's last problem document, else
 * the last error. Lines that are not what they should be are skipped:
 * the output is another program's.
 */
export function readCertificates(output: string): Map<string, DomainReading> {
  const readings = new Map<string, DomainReading>();
  const reading = (domain: string) => {
    let r = readings.get(domain);
    if (!r) readings.set(domain, (r = { certificate: null, failure: null }));
    return r;
  };
  const [files, log = ''] = output.split(`\n${LOG_MARK}\n`);
  for (const part of `\n${files}`.split(`\n${READING_MARK}`).slice(1)) {
    const newline = part.indexOf('\n');
    const domain = STORED.exec(part.slice(0, newline))?.[1];
    const certificate = domain ? held(part.slice(newline + 1)) : null;
    if (!domain || !certificate) continue;
    const r = reading(domain);
    if (!r.certificate || r.certificate.notBefore < certificate.notBefore)
      r.certificate = certificate;
  }
  const succeeded = new Map<string, number>();
  for (const line of log.split('\n')) {
    let entry: LogEntry;
    try {
      entry = JSON.parse(line) as LogEntry;
    } catch {
      continue;
    }
    const { identifier, ts, level, msg, error } = entry;
    if (typeof identifier !== 'string' || typeof ts !== 'number') continue;
    const domain = identifier.toLowerCase();
    if (/obtained successfully|certificate renewed successfully/.test(String(msg))) {
      succeeded.set(domain, ts);
      if (readings.get(domain)?.failure) reading(domain).failure = null;
    } else if (level === 'error' && ts > (succeeded.get(domain) ?? 0)) {
      const reason = stable(printable(`${String(msg)}: ${typeof error === 'string' ? error : ''}`));
      const before = reading(domain).failure;
      // One attempt logs several errors; the CA's problem document says why, the rest say
      // that it failed. Keeping that one keeps the reason the same from retry to retry.
      const kept = !ACME_PROBLEM.test(reason) && before && ACME_PROBLEM.test(before.reason);
      reading(domain).failure = {
        reason: kept ? before.reason : reason.slice(0, 1000),
        at: new Date(ts * 1000).toISOString(),
      };
    }
  }
  return readings;
}
