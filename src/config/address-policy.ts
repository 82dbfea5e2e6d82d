import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

/**
 * Named address ranges the server address policy speaks of. `metadata` lists the cloud
 * instance-metadata endpoints (AWS, GCP, Azure, DigitalOcean, Oracle: 169.254.169.254; AWS ECS:
 * 169.254.170.2; AWS IPv6: fd00:ec2::254; Alibaba: 100.100.100.200; Tencent: 169.254.0.23).
 */
export const ADDRESS_CLASSES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  'link-local': ['169.254.0.0/16', 'fe80::/10'],
  metadata: [
    '169.254.169.254/32',
    '169.254.170.2/32',
    '169.254.0.23/32',
    '100.100.100.200/32',
    'fd00:ec2::254/128',
  ],
  unspecified: ['0.0.0.0/8', '::/128'],
  multicast: ['224.0.0.0/4', 'ff00::/8'],
  broadcast: ['255.255.255.255/32'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7'],
};

/** Refused unless the setting says otherwise; everything else (private ranges too) is allowed. */
export const DEFAULT_REFUSED = [
  'loopback',
  'link-local',
  'metadata',
  'unspecified',
  'multicast',
  'broadcast',
];

export interface AddressRule {
  allow: boolean;
  range: Range;
  /** What the rule was written as (a class name or a CIDR), for messages. */
  label: string;
  /** Rules from the setting beat built-in ones on equally specific ranges. */
  configured: boolean;
}

export interface AddressVerdict {
  allowed: boolean;
  /** The rule that decided, e.g. "loopback"; null when no rule matched (allowed). */
  rule: string | null;
}

function rangesOf(target: string): Range[] | null {
  if (ADDRESS_CLASSES[target]) return ADDRESS_CLASSES[target].map((c) => ipaddr.parseCIDR(c));
  try {
    if (target.includes('/')) return [ipaddr.parseCIDR(target)];
    if (ipaddr.isValidCIDR(target) || !isStrictAddress(target)) return null;
    const address = ipaddr.parse(target);
    return [[address, address.kind() === 'ipv4' ? 32 : 128]];
  } catch {
    return null;
  }
}

/** Dotted quads and IPv6 text only: ipaddr.js also reads `0x7f.1` and the like. */
function isStrictAddress(text: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);
}

/**
 * Reads `SLIPWAY_SERVER_ADDRESS_POLICY`: entries `allow:<class|address|cidr>` or
 * `deny:<class|address|cidr>`, separated by commas or spaces. Returns the problems, if any.
 */
export function addressPolicyProblems(setting: string): string[] {
  return entries(setting).flatMap((entry) => {
    const match = /^(allow|deny):(.+)$/.exec(entry);
    if (!match) return [`"${entry}" is not allow:<range> or deny:<range>`];
    return rangesOf(match[2])
      ? []
      : [
          `"${match[2]}" is not a class (${Object.keys(ADDRESS_CLASSES).join(', ')}), an address or a CIDR`,
        ];
  });
}

function entries(setting: string): string[] {
  return setting
    .split(/[\s,]+/)
    .map((e) => e.trim())
    .filter(Boolean);
}

/** The built-in refusals followed by the setting's rules (which must be valid). */
export function compileAddressPolicy(setting: string): AddressRule[] {
  const builtIn = DEFAULT_REFUSED.flatMap((name) =>
    rangesOf(name)!.map((range) => ({ allow: false, range, label: name, configured: false })),
  );
  const fromSetting = entries(setting).flatMap((entry) => {
    const [action, target] = [
      entry.slice(0, entry.indexOf(':')),
      entry.slice(entry.indexOf(':') + 1),
    ];
    const ranges = rangesOf(target);
    if (!ranges || (action !== 'allow' && action !== 'deny'))
      throw new Error(`invalid address policy entry ${entry}`);
    return ranges.map((range) => ({
      allow: action === 'allow',
      range,
      label: target,
      configured: true,
    }));
  });
  return [...builtIn, ...fromSetting];
}

/** IPv4 addresses carried inside IPv6 forms (mapped, compatible, NAT64, 6to4, Teredo). */
function embeddedIPv4(address: Address): ipaddr.IPv4[] {
  if (address.kind() !== 'ipv6') return [];
  const v6 = address as ipaddr.IPv6;
  const p = v6.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const found: ipaddr.IPv4[] = [];
  const zeros = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  // ::ffff:a.b.c.d, and the deprecated ::a.b.c.d (but not :: and ::1, which are IPv6's own)
  if (zeros(0, 5) && (p[5] === 0xffff || p[6] !== 0)) found.push(v4(p[6], p[7]));
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) found.push(v4(p[6], p[7])); // RFC 6145
  if (p[0] === 0x64 && p[1] === 0xff9b) found.push(v4(p[6], p[7])); // NAT64
  if (p[0] === 0x2002) found.push(v4(p[1], p[2])); // 6to4
  if (p[0] === 0x2001 && p[1] === 0) {
    found.push(v4(p[2], p[3]), v4(~p[6] & 0xffff, ~p[7] & 0xffff)); // Teredo server, client
  }
  return found;
}

function decide(rules: AddressRule[], address: Address): AddressVerdict {
  let best: AddressRule | null = null;
  for (const rule of rules) {
    if (rule.range[0].kind() !== address.kind() || !address.match(rule.range)) continue;
    // The most specific range decides; on a tie, the setting beats the built-in list and a
    // later entry beats an earlier one.
    if (
      !best ||
      rule.range[1] > best.range[1] ||
      (rule.range[1] === best.range[1] && rule.configured)
    )
      best = rule;
  }
  return best ? { allowed: best.allow, rule: best.label } : { allowed: true, rule: null };
}

/**
 * Whether the policy lets Slipway connect to `text` (an IP address). An IPv6 form that carries
 * an IPv4 address is refused when either is.
 */
export function addressVerdict(rules: AddressRule[], text: string): AddressVerdict {
  const address = ipaddr.parse(text.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  const plain =
    address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
      ? (address as ipaddr.IPv6).toIPv4Address()
      : address;
  for (const candidate of [plain, ...embeddedIPv4(address)]) {
    const verdict = decide(rules, candidate);
    if (!verdict.allowed) return verdict;
  }
  return decide(rules, plain);
}
