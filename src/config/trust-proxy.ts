import ipaddr from 'ipaddr.js';

/**
 * Which proxies in front of Slipway are believed about the client (`X-Forwarded-For`,
 * `X-Forwarded-Proto`): none; the nearest N (the client is the address the Nth appended); or
 * those at the given addresses, ranges and names (Express's `loopback`, `linklocal`,
 * `uniquelocal`). Never "all": the leftmost `X-Forwarded-For` entry is whatever the client wrote,
 * and every per-address limit and the audit trail's addresses would believe it.
 */
export type TrustProxy = false | number | readonly string[];

const NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const MAX_HOPS = 10;
const MAX_ENTRIES = 32;

function entryProblem(entry: string): string | null {
  if (NAMES.has(entry)) return null;
  if (entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry)) return null;
  return `"${entry.slice(0, 64)}" is not an address, a range (10.0.0.0/8) or one of ${[...NAMES].join(', ')}`;
}

/** The setting's meaning, or why it has none. `true` is one proxy: the one Slipway's socket sees. */
export function parseTrustProxy(raw: string): TrustProxy | { problem: string } {
  const value = raw.trim();
  if (value === 'false' || value === '0' || value === '') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops <= MAX_HOPS ? hops : { problem: `at most ${MAX_HOPS} proxies` };
  }
  const entries = value.split(',').map((e) => e.trim());
  if (entries.length > MAX_ENTRIES) return { problem: `at most ${MAX_ENTRIES} entries` };
  const problems = entries.map(entryProblem).filter((p): p is string => p !== null);
  return problems.length ? { problem: problems.join('; ') } : entries;
}

/** What Express's `trust proxy` takes for it. */
export function expressTrustProxy(trust: TrustProxy): boolean | number | string {
  return typeof trust === 'object' ? trust.join(',') : trust;
}
