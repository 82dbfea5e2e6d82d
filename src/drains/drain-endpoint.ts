import { X509Certificate } from 'node:crypto';
import { isHttpsOrLoopback, NOT_HTTPS } from '../common/https-url.js';
import type { DrainKind } from '../events/drains.events.js';

/** Where a drain connects: the host (for the address policy and TLS names) and the port. */
export interface DrainTarget {
  host: string;
  port: number;
  /** The whole URL, for OTLP (null for syslog). */
  url: URL | null;
}

/**
 * Why `value` is not an endpoint a drain of `kind` may use, or null. Syslog is TLS only
 * (`tls://host:port`): audit records cross the network. OTLP is https; plain http only on a
 * loopback address (a collector on the same machine).
 */
export function endpointProblem(kind: DrainKind, value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not carry credentials';
  if (url.search || url.hash || value.includes('?') || value.includes('#')) {
    return 'must have no query or fragment';
  }
  if (!url.hostname) return 'must name a host';
  if (kind === 'syslog') {
    if (url.protocol !== 'tls:') return 'must be tls://host:port (syslog is sent over TLS)';
    if (!url.port) return 'must name its port (6514 is the usual one)';
    if (url.pathname !== '' && url.pathname !== '/') return 'must have no path';
    return null;
  }
  return isHttpsOrLoopback(url) ? null : NOT_HTTPS;
}

/** The host and port of an endpoint `endpointProblem` accepted. */
export function drainTarget(kind: DrainKind, endpoint: string): DrainTarget {
  const url = new URL(endpoint);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || (url.protocol === 'http:' ? 80 : 443));
  return { host, port, url: kind === 'otlp' ? url : null };
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Why `pem` is not a bundle of certificates to trust, or null. */
export function caCertificateProblem(pem: string): string | null {
  const blocks = pem.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) return 'must hold PEM certificates (-----BEGIN CERTIFICATE-----)';
  if (blocks.length > 10) return 'holds more than 10 certificates';
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch {
      return 'holds a certificate that does not parse';
    }
  }
  return null;
}
