/**
 * Which network addresses a server-side fetch of a tenant's URL may reach. Only public unicast addresses pass:
 * loopback, private, link-local, CGNAT, multicast, broadcast, unspecified, documentation, benchmarking and other
 * reserved ranges are refused, in IPv4 and IPv6, and an IPv6 form that embeds an IPv4 address (mapped, NAT64, 6to4)
 * is judged by that IPv4 address. The operator's allow-list (`OUTBOUND_ALLOW`) lifts the refusal for the host names
 * and networks it names (self-hosted gateways on a private network).
 */
import net from 'node:net';

export interface IpAddress {
  family: 4 | 6;
  /** 4 or 16 bytes, network order. */
  bytes: Uint8Array;
}

export interface Network {
  family: 4 | 6;
  bytes: Uint8Array;
  prefix: number;
}

function parseIpv4(text: string): Uint8Array | null {
  if (net.isIPv4(text) === false) return null;
  return Uint8Array.from(text.split('.').map(Number));
}

function parseIpv6(text: string): Uint8Array | null {
  if (!net.isIPv6(text)) return null;
  let head = text;
  const bytes = new Uint8Array(16);
  // A trailing dotted IPv4 (::ffff:127.0.0.1) fills the last four bytes.
  let tailV4: Uint8Array | null = null;
  const lastColon = head.lastIndexOf(':');
  if (head.slice(lastColon + 1).includes('.')) {
    tailV4 = parseIpv4(head.slice(lastColon + 1));
    if (!tailV4) return null;
    head = `${head.slice(0, lastColon + 1)}0:0`;
  }
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const lead = groups(left);
  const trail = groups(right);
  const words = right === undefined ? lead : [...lead, ...new Array(8 - lead.length - trail.length).fill(0), ...trail];
  if (words.length !== 8) return null;
  words.forEach((word, i) => {
    bytes[i * 2] = word >> 8;
    bytes[i * 2 + 1] = word & 0xff;
  });
  if (tailV4) bytes.set(tailV4, 12);
  return bytes;
}

/** An IP literal (IPv6 with or without brackets; a zone id is refused: it names an interface, not a host). */
export function parseIp(text: string): IpAddress | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const v4 = parseIpv4(bare);
  if (v4) return { family: 4, bytes: v4 };
  if (bare.includes('%')) return null;
  const v6 = parseIpv6(bare);
  return v6 ? { family: 6, bytes: v6 } : null;
}

/** `10.0.0.0/8`, `fd00::/8`, or a single address (a /32 or /128). */
export function parseNetwork(text: string): Network | null {
  const [address, prefixText, extra] = text.trim().split('/');
  if (extra !== undefined || !address) return null;
  const ip = parseIp(address);
  if (!ip) return null;
  const max = ip.family === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return null;
  return { family: ip.family, bytes: ip.bytes, prefix };
}

export function inNetwork(ip: IpAddress, network: Network): boolean {
  if (ip.family !== network.family) return false;
  const full = Math.floor(network.prefix / 8);
  for (let i = 0; i < full; i++) if (ip.bytes[i] !== network.bytes[i]) return false;
  const rest = network.prefix % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (ip.bytes[full]! & mask) === (network.bytes[full]! & mask);
}

const networks = (list: string[]): Network[] => list.map((text) => parseNetwork(text)!);

/** IPv4 ranges that are not a public host on the internet (IANA special-purpose registry). */
const REFUSED_V4 = networks([
  '0.0.0.0/8', // "this network", unspecified
  '10.0.0.0/8', // private
  '100.64.0.0/10', // CGNAT shared space
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local (cloud metadata at 169.254.169.254)
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation (TEST-NET-1)
  '192.88.99.0/24', // 6to4 relay anycast (deprecated)
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation (TEST-NET-2)
  '203.0.113.0/24', // documentation (TEST-NET-3)
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, and 255.255.255.255 broadcast
]);

/** IPv6 ranges refused inside global unicast (2000::/3); everything outside it is refused anyway. */
const REFUSED_V6 = networks([
  '2001::/32', // Teredo (the client address is obfuscated: it cannot be judged)
  '2001:2::/48', // benchmarking
  '2001:10::/28', // ORCHID
  '2001:20::/28', // ORCHIDv2
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation
]);

const GLOBAL_UNICAST = parseNetwork('2000::/3')!;
const MAPPED = parseNetwork('::ffff:0:0/96')!;
const NAT64 = parseNetwork('64:ff9b::/96')!;
const SIX_TO_FOUR = parseNetwork('2002::/16')!;

/** The IPv4 address an IPv6 form carries (IPv4-mapped, the well-known NAT64 prefix, 6to4), else null. */
export function embeddedIpv4(ip: IpAddress): IpAddress | null {
  if (ip.family !== 6) return null;
  if (inNetwork(ip, MAPPED) || inNetwork(ip, NAT64)) return { family: 4, bytes: ip.bytes.slice(12, 16) };
  if (inNetwork(ip, SIX_TO_FOUR)) return { family: 4, bytes: ip.bytes.slice(2, 6) };
  return null;
}

/** Whether the address is a public unicast host (the only kind a tenant's URL may reach without the allow-list). */
export function isPublicAddress(ip: IpAddress): boolean {
  if (ip.family === 4) return !REFUSED_V4.some((range) => inNetwork(ip, range));
  const v4 = embeddedIpv4(ip);
  if (v4) return isPublicAddress(v4);
  // Outside 2000::/3 lie ::/128, ::1, the IPv4-compatible ::/96, 100::/64, unique-local fc00::/7, link-local
  // fe80::/10, site-local fec0::/10, multicast ff00::/8 and unassigned space.
  return inNetwork(ip, GLOBAL_UNICAST) && !REFUSED_V6.some((range) => inNetwork(ip, range));
}

/** The operator's allow-list: host names (exact, or `*.suffix`) and networks whose refusal is lifted. */
export interface OutboundAllowList {
  hosts: readonly string[];
  networks: readonly Network[];
}

export const EMPTY_ALLOW_LIST: OutboundAllowList = { hosts: [], networks: [] };

const HOST_NAME = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** `OUTBOUND_ALLOW`: a comma list of host names, `*.suffix` names, IP addresses and CIDR networks. */
export function parseOutboundAllow(value: string | undefined): OutboundAllowList {
  const hosts: string[] = [];
  const nets: Network[] = [];
  for (const raw of (value ?? '').split(',')) {
    const item = raw.trim().toLowerCase().replace(/\.$/, '');
    if (!item) continue;
    const network = parseNetwork(item);
    if (network) nets.push(network);
    else if (HOST_NAME.test(item) && !item.includes('/')) hosts.push(item);
    else throw new Error(`"${raw.trim()}" is neither a host name, an IP address nor a CIDR network`);
  }
  return { hosts, networks: nets };
}

/** Whether `host` (lowercase, no trailing dot) matches a list entry: exact, or `*.suffix` for any sub-domain. */
export function hostMatches(host: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) =>
    pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1 : host === pattern,
  );
}

/** Whether the allow-list lifts the refusal of this address (an IPv4 form inside IPv6 matches IPv4 networks too). */
export function addressAllowed(ip: IpAddress, allow: OutboundAllowList): boolean {
  const v4 = embeddedIpv4(ip);
  return allow.networks.some((network) => inNetwork(ip, network) || (v4 !== null && inNetwork(v4, network)));
}
