import ipaddr from 'ipaddr.js';

/** Where a request came in: what the server listens on, and the connection's own end. */
export interface Arrival {
  /** The address the server is bound to (`0.0.0.0`, `::`, `127.0.0.1`, ...). */
  boundAddress: string;
  /** The local address and port of this connection: the address the client reached. */
  localAddress: string;
  localPort: number;
  /** `req.protocol`: https only over TLS or from a trusted proxy that says so. */
  protocol: string;
}

/** A host as a Host header or an origin names it; port null when none is written. */
interface NamedHost {
  hostname: string;
  port: number | null;
}

interface PublicHost {
  hostname: string;
  port: number;
  defaultPort: number;
  origin: string;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
const HOST_HEADER = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?$/;

const defaultPort = (protocol: string): number => (protocol.startsWith('https') ? 443 : 80);

/** The name as a browser writes it: lower case, IP addresses in their canonical form. */
function normalizedHostname(name: string): string | null {
  try {
    return new URL(`http://${name}`).hostname;
  } catch {
    return null;
  }
}

function parseHostHeader(value: string | undefined): NamedHost | null {
  const match = value === undefined ? null : HOST_HEADER.exec(value);
  if (!match) return null;
  const hostname = normalizedHostname(match[1]);
  const port = match[2] === undefined ? null : Number(match[2]);
  if (hostname === null || (port !== null && port > 65_535)) return null;
  return { hostname, port };
}

function ipOf(text: string): string | null {
  const bare = text.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return null;
  return ipaddr.process(bare).toNormalizedString();
}

/** Bound to loopback or to every address: either way loopback connections reach it. */
function reachableOverLoopback(boundAddress: string): boolean {
  if (boundAddress === 'localhost') return true;
  if (!ipaddr.isValid(boundAddress)) return false;
  const range = ipaddr.process(boundAddress).range();
  return range === 'loopback' || range === 'unspecified';
}

/**
 * The names this server answers to, against DNS rebinding: a page on an attacker's name that
 * resolves to this server would otherwise be same-origin with it. Allowed are the hosts of the
 * public URLs; the loopback names on the port listened on, when loopback connections reach the
 * server; and the very address a connection was made to, written as an IP address. None of
 * these can be an attacker's name: an address needs no DNS, and browsers resolve `localhost`
 * to loopback themselves.
 */
export class AllowedHosts {
  private readonly publicHosts: PublicHost[];

  constructor(publicUrls: readonly string[]) {
    this.publicHosts = publicUrls.map((text) => {
      const url = new URL(text);
      const fallback = defaultPort(url.protocol);
      const port = url.port === '' ? fallback : Number(url.port);
      return { hostname: url.hostname, port, defaultPort: fallback, origin: url.origin };
    });
  }

  /** Answers by Host and arrival: the same few pairs come again and again. */
  private readonly answered = new Map<string, boolean>();

  /** Whether a request whose Host header is `header` is meant for this server. */
  allowsHost(header: string | undefined, arrival: Arrival): boolean {
    if (header === undefined || header.length > 300) return this.decideHost(header, arrival);
    const key = `${header}\n${arrival.boundAddress}\n${arrival.localAddress}\n${arrival.localPort}\n${arrival.protocol}`;
    let answer = this.answered.get(key);
    if (answer === undefined) {
      answer = this.decideHost(header, arrival);
      // Bounded: a caller sending a new Host each time only ever empties it.
      if (this.answered.size >= 256) this.answered.clear();
      this.answered.set(key, answer);
    }
    return answer;
  }

  private decideHost(header: string | undefined, arrival: Arrival): boolean {
    const host = parseHostHeader(header);
    if (!host) return false;
    const isPublic = this.publicHosts.some(
      (p) =>
        p.hostname === host.hostname &&
        (host.port === null ? p.port === p.defaultPort : p.port === host.port),
    );
    return (
      isPublic || this.isLocal(host.hostname, host.port ?? defaultPort(arrival.protocol), arrival)
    );
  }

  /**
   * Whether a browser's `Origin` is one of this server's own: a public URL's origin, or a name
   * allowed above over the protocol of this request. Never judged by the request's own Host.
   */
  allowsOrigin(origin: string, arrival: Arrival): boolean {
    if (this.publicHosts.some((p) => p.origin === origin)) return true;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    // A browser sends the serialized origin and nothing else: anything longer is not one.
    if (url.origin !== origin || url.protocol !== `${arrival.protocol}:`) return false;
    const port = url.port === '' ? defaultPort(url.protocol) : Number(url.port);
    return this.isLocal(url.hostname, port, arrival);
  }

  private isLocal(hostname: string, port: number, arrival: Arrival): boolean {
    if (port !== arrival.localPort) return false;
    if (LOOPBACK_NAMES.has(hostname) && reachableOverLoopback(arrival.boundAddress)) return true;
    const address = ipOf(hostname);
    return address !== null && address === ipOf(arrival.localAddress);
  }
}
