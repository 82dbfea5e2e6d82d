import { isMap } from './compose-merge.js';

/** One `ports:` entry as Compose reads it, either syntax. */
export interface PortMapping {
  hostIp: string | null;
  /** A port or range on the host; null: Compose picks one. */
  published: string | null;
  /** A port or range in the container. */
  target: string;
  protocol: string;
}

const PROTOCOLS = new Set(['tcp', 'udp', 'sctp']);
const RANGE = /^(\d{1,5})(?:-(\d{1,5}))?$/;
const IPV4 = /^(?:\d{1,3}\.){3}\d{1,3}$/;
const IPV6 = /^[0-9a-fA-F:.]+$/;

function rangeProblem(text: string, what: string): string | null {
  const m = RANGE.exec(text);
  if (!m) return `${what} ${JSON.stringify(text)} is not a port or range`;
  const [from, to] = [Number(m[1]), Number(m[2] ?? m[1])];
  if (from > 65535 || to > 65535 || to < from)
    return `${what} ${JSON.stringify(text)} is outside 0-65535 or reversed`;
  return null;
}

/**
 * The short syntax `[[IP:]HOST:]CONTAINER[/PROTOCOL]`, an IPv6 address in brackets
 * (`[::1]:8080:80`), ranges on either side; or the long syntax's map. A problem names what is
 * wrong; numbers are read as the short syntax's container port.
 */
export function readPort(entry: unknown): PortMapping | { problem: string } {
  if (typeof entry === 'number') entry = String(entry);
  if (isMap(entry)) return readLong(entry);
  if (typeof entry !== 'string') return { problem: 'is not a port mapping' };
  let rest = entry;
  let protocol = 'tcp';
  const slash = rest.lastIndexOf('/');
  if (slash >= 0) {
    protocol = rest.slice(slash + 1).toLowerCase();
    rest = rest.slice(0, slash);
  }
  let hostIp: string | null = null;
  if (rest.startsWith('[')) {
    const close = rest.indexOf(']:');
    if (close < 0) return { problem: `${JSON.stringify(entry)} has an unclosed [IPv6] address` };
    hostIp = rest.slice(1, close);
    rest = rest.slice(close + 2);
  }
  const parts = rest.split(':');
  if (hostIp === null && parts.length === 3) hostIp = parts.shift()!;
  if (parts.length > 2 || (hostIp !== null && parts.length !== 2))
    return { problem: `${JSON.stringify(entry)} is not [[IP:]HOST:]CONTAINER[/PROTOCOL]` };
  const target = parts.pop()!;
  const published = parts.length ? parts[0] || null : null;
  return checked({ hostIp, published, target, protocol });
}

function readLong(entry: Record<string, unknown>): PortMapping | { problem: string } {
  const text = (v: unknown): string | null =>
    typeof v === 'number' || typeof v === 'string' ? String(v) : null;
  const target = text(entry.target);
  if (target === null) return { problem: 'a long-syntax port needs target' };
  return checked({
    hostIp: text(entry.host_ip),
    published: text(entry.published),
    target,
    protocol: (text(entry.protocol) ?? 'tcp').toLowerCase(),
  });
}

function checked(port: PortMapping): PortMapping | { problem: string } {
  const problem =
    (!PROTOCOLS.has(port.protocol)
      ? `protocol ${JSON.stringify(port.protocol)} is not tcp, udp or sctp`
      : null) ??
    (port.hostIp !== null &&
    port.hostIp !== '' &&
    !IPV4.test(port.hostIp) &&
    !IPV6.test(port.hostIp)
      ? `${JSON.stringify(port.hostIp)} is not an IP address`
      : null) ??
    rangeProblem(port.target, 'the container port') ??
    (port.published !== null ? rangeProblem(port.published, 'the host port') : null);
  return problem ? { problem } : port;
}

/** What is wrong with a `ports:` entry, or null. */
export function portIssue(entry: unknown): string | null {
  const read = readPort(entry);
  return 'problem' in read ? read.problem : null;
}

/** An entry in the short syntax, for summaries: `[IP:]HOST:CONTAINER/PROTOCOL`. */
export function portText(entry: unknown): string {
  const read = readPort(entry);
  if ('problem' in read) return String(typeof entry === 'object' ? JSON.stringify(entry) : entry);
  const ip = read.hostIp
    ? read.hostIp.includes(':')
      ? `[${read.hostIp}]:`
      : `${read.hostIp}:`
    : '';
  const host = read.published !== null ? `${read.published}:` : ip ? ':' : '';
  const proto = read.protocol === 'tcp' ? '' : `/${read.protocol}`;
  return `${ip}${host}${read.target}${proto}`;
}
