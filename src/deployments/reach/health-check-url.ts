import { isIP } from 'node:net';
import type { AddressGate } from './address-gate.js';

export interface PinnedProbe {
  url: string;
  /** curl's `--resolve host:port:address`, so curl uses the checked address; null for IPs. */
  resolve: string | null;
}

/** Only plain http(s) URLs; returns the problem or null. */
export function healthUrlShapeProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'healthCheckUrl must be an absolute http(s) URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'healthCheckUrl must use http or https';
  if (!url.hostname) return 'healthCheckUrl must name a host';
  return null;
}

/** Checks the URL's host against the address policy and pins the address curl will use. */
export async function pinHealthUrl(gate: AddressGate, text: string): Promise<PinnedProbe> {
  const problem = healthUrlShapeProblem(text);
  if (problem) throw new Error(problem);
  const url = new URL(text);
  const address = await gate.pin(url.hostname);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) return { url: url.href, resolve: null };
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const pinned = isIP(address) === 6 ? `[${address}]` : address;
  return { url: url.href, resolve: `${url.hostname}:${port}:${pinned}` };
}
