import ipaddr from 'ipaddr.js';

/**
 * The address a login counter is kept for. One IPv6 host usually holds a whole /64 and can
 * hop between its addresses at will, so IPv6 addresses count per /64; an IPv4-mapped IPv6
 * address counts as the IPv4 one.
 */
export function addressKey(address: string | null | undefined): string {
  if (!address || !ipaddr.isValid(address)) return 'unknown';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}
