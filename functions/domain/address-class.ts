// What kind of IP address a webhook's host resolves to (functions/domain/webhook-url.ts
// refuses every kind but public): the private, loopback, link-local, carrier-grade NAT,
// metadata, multicast and reserved ranges of IPv4 and IPv6, IPv4 embedded in IPv6 included.

export type AddressClass =
  | 'public'
  | 'private'
  | 'loopback'
  | 'link-local'
  | 'cgnat'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

/** A range classifies directly, or holds an IPv4 address at a bit offset that decides instead. */
type Verdict = AddressClass | { ipv4At: number };

interface Range {
  base: bigint;
  bits: number;
  verdict: Verdict;
}

/** First match wins, so the narrow ranges (metadata hosts) come before those that contain them. */
const IPV4_RANGES = rangesOf(parseIPv4, 32, [
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  // Alibaba Cloud's metadata service sits inside the carrier-grade NAT range.
  ['100.100.100.200/32', 'metadata'],
  ['100.64.0.0/10', 'cgnat'],
  ['127.0.0.0/8', 'loopback'],
  // EC2 (and GCP, Azure) instance metadata, ECS task credentials, EKS Pod Identity.
  ['169.254.169.254/32', 'metadata'],
  ['169.254.170.2/32', 'metadata'],
  ['169.254.170.23/32', 'metadata'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  // IETF protocol assignments, documentation, the deprecated 6to4 relay, benchmarking.
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'reserved'],
  ['192.88.99.0/24', 'reserved'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'],
  ['198.51.100.0/24', 'reserved'],
  ['203.0.113.0/24', 'reserved'],
  ['224.0.0.0/4', 'multicast'],
  // Includes the limited broadcast address 255.255.255.255.
  ['240.0.0.0/4', 'reserved'],
  ['0.0.0.0/0', 'public'],
]);

const IPV6_RANGES = rangesOf(parseIPv6, 128, [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  // Forms that carry an IPv4 address the packet ends up at: mapped, SIIT-translated, NAT64
  // (well-known prefix), IPv4-compatible (deprecated, still parsed) and 6to4.
  ['::ffff:0:0/96', { ipv4At: 0 }],
  ['::ffff:0:0:0/96', { ipv4At: 0 }],
  ['64:ff9b::/96', { ipv4At: 0 }],
  ['::/96', { ipv4At: 0 }],
  ['2002::/16', { ipv4At: 80 }],
  // NAT64 local-use prefix: a translator inside someone's network.
  ['64:ff9b:1::/48', 'private'],
  // EC2 instance metadata and EKS Pod Identity over IPv6.
  ['fd00:ec2::254/128', 'metadata'],
  ['fd00:ec2::23/128', 'metadata'],
  ['fc00::/7', 'private'],
  ['fe80::/10', 'link-local'],
  // Site-local: deprecated, but still private wherever it is used.
  ['fec0::/10', 'private'],
  ['ff00::/8', 'multicast'],
  // IETF protocol assignments (Teredo among them) and documentation: no webhook receiver lives there.
  ['2001::/23', 'reserved'],
  ['2001:db8::/32', 'reserved'],
  ['3fff::/20', 'reserved'],
  ['2000::/3', 'public'],
  // Everything outside global unicast is unallocated or special.
  ['::/0', 'reserved'],
]);

function rangesOf(
  parse: (ip: string) => bigint | undefined,
  width: number,
  entries: readonly (readonly [cidr: string, verdict: Verdict])[],
): readonly Range[] {
  return entries.map(([cidr, verdict]) => {
    const [address, bits] = cidr.split('/');
    const base = parse(address);
    if (base === undefined || Number(bits) > width) throw new Error(`Bad range ${cidr}`);
    return { base, bits: Number(bits), verdict };
  });
}

/**
 * The kind of address `ip` is: canonical dotted IPv4 or IPv6 (brackets and a zone allowed),
 * as DNS and the WHATWG URL parser produce them. Anything else — odd IPv4 spellings such as
 * `0177.0.0.1` included — is 'reserved', so it is refused rather than guessed at: URLs reach
 * here only after `new URL()` has normalised them.
 */
export function classifyAddress(ip: string): AddressClass {
  const v4 = parseIPv4(ip);
  if (v4 !== undefined) return classifyIn(IPV4_RANGES, v4, 32);
  const v6 = parseIPv6(ip);
  if (v6 !== undefined) return classifyIn(IPV6_RANGES, v6, 128);
  return 'reserved';
}

function classifyIn(ranges: readonly Range[], value: bigint, width: number): AddressClass {
  const range = ranges.find(({ base, bits }) => value >> BigInt(width - bits) === base >> BigInt(width - bits));
  // The last range of each table is /0, so one always matches.
  const verdict = range?.verdict ?? 'reserved';
  if (typeof verdict === 'string') return verdict;
  return classifyIn(IPV4_RANGES, (value >> BigInt(verdict.ipv4At)) & 0xffffffffn, 32);
}

/** Strict dotted-quad: four decimal octets without leading zeros (which some parsers read as octal). */
export function parseIPv4(ip: string): bigint | undefined {
  const octets = ip.split('.');
  if (octets.length !== 4 || !octets.every((octet) => /^(0|[1-9]\d{0,2})$/.test(octet) && Number(octet) <= 255)) {
    return undefined;
  }
  return octets.reduce((value, octet) => (value << 8n) | BigInt(octet), 0n);
}

function parseIPv6(ip: string): bigint | undefined {
  const bare = ip.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const halves = bare.split('::');
  if (halves.length > 2) return undefined;
  const head = groupsOf(halves[0]);
  const tail = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  // `::` stands for at least one group of zeros; without it all eight must be written.
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<number>(missing).fill(0), ...tail];
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

/** Hex groups of one side of `::`; a trailing dotted IPv4 counts as two groups. */
function groupsOf(part: string): number[] | undefined {
  if (part === '') return [];
  const pieces = part.split(':');
  const last = pieces[pieces.length - 1];
  const embedded = last.includes('.') ? parseIPv4(last) : undefined;
  if (last.includes('.') && embedded === undefined) return undefined;
  const hex = embedded === undefined ? pieces : pieces.slice(0, -1);
  if (!hex.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return undefined;
  const groups = hex.map((group) => Number.parseInt(group, 16));
  if (embedded !== undefined) groups.push(Number(embedded >> 16n), Number(embedded & 0xffffn));
  return groups;
}
