import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/**
 * Which destinations the service may call on a customer's behalf (webhook endpoints today, OAuth client metadata
 * documents later): https to a public host only. Addresses are judged numerically, after the WHATWG URL parser has
 * normalised every IPv4 spelling (127.1, 2130706433, 0x7f000001, 0177.0.0.1 → 127.0.0.1); IPv6 addresses that embed
 * an IPv4 one (IPv4-mapped, NAT64, 6to4) are judged by the IPv4 address they carry.
 */
export interface DestinationPolicy {
  /** The local runtime's exception: http or https to a loopback host (localhost, 127.0.0.0/8, ::1). Never on AWS. */
  allowLoopback: boolean;
}

/** The policy of this process: loopback only where the local runtime or a test says so explicitly. */
export const destinationPolicy = (): DestinationPolicy => ({ allowLoopback: process.env.WEBHOOKS_ALLOW_HTTP_LOOPBACK === 'true' });

type Range = readonly [network: bigint, bits: number, label: string];

const v4 = (dotted: string): bigint => dotted.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);

function v6(text: string): bigint {
  let address = text.split('%')[0]!.toLowerCase();
  const tail = address.slice(address.lastIndexOf(':') + 1);
  if (tail.includes('.')) {
    const embedded = v4(tail);
    address = `${address.slice(0, address.length - tail.length)}${(embedded >> 16n).toString(16)}:${(embedded & 0xffffn).toString(16)}`;
  }
  const [head, rest] = address.split('::') as [string, string | undefined];
  const before = head ? head.split(':') : [];
  const after = rest === undefined ? [] : rest ? rest.split(':') : [];
  const groups = rest === undefined ? before : [...before, ...Array<string>(8 - before.length - after.length).fill('0'), ...after];
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}

const V4_RANGES: Range[] = [
  [v4('0.0.0.0'), 8, 'unspecified ("this network")'],
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'carrier-grade NAT'],
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'link-local (cloud metadata)'],
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'IETF protocol assignment'],
  [v4('192.0.2.0'), 24, 'documentation'],
  [v4('192.88.99.0'), 24, '6to4 relay'],
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'benchmarking'],
  [v4('198.51.100.0'), 24, 'documentation'],
  [v4('203.0.113.0'), 24, 'documentation'],
  [v4('224.0.0.0'), 4, 'multicast'],
  [v4('240.0.0.0'), 4, 'reserved or broadcast'],
];

const V6_RANGES: Range[] = [
  [v6('::'), 128, 'unspecified'],
  [v6('::1'), 128, 'loopback'],
  [v6('::'), 96, 'IPv4-compatible (deprecated)'],
  [v6('64:ff9b:1::'), 48, 'local NAT64'],
  [v6('100::'), 64, 'discard-only'],
  [v6('2001:db8::'), 32, 'documentation'],
  [v6('2001::'), 23, 'IETF special-purpose (Teredo…)'],
  [v6('fc00::'), 7, 'unique-local'],
  [v6('fe80::'), 10, 'link-local'],
  [v6('fec0::'), 10, 'site-local (deprecated)'],
  [v6('ff00::'), 8, 'multicast'],
];

/** IPv6 prefixes whose low bits carry an IPv4 address, which decides: [prefix, bits, shift of the IPv4 address]. */
const EMBEDDING_V4: readonly [bigint, number, bigint][] = [
  [v6('::ffff:0:0'), 96, 0n], // IPv4-mapped
  [v6('64:ff9b::'), 96, 0n], // NAT64
  [v6('2002::'), 16, 80n], // 6to4
];

const within = (address: bigint, width: number, [network, bits]: readonly [bigint, number, ...unknown[]]) =>
  address >> BigInt(width - bits) === network >> BigInt(width - bits);

/**
 * Why an IP address is not a public destination (e.g. `loopback`), or undefined when it is one. IPv6 outside
 * global unicast (2000::/3) is never public. Accepts IPv6 with or without brackets; anything else is `not an IP`.
 */
export function nonPublicRange(ip: string): string | undefined {
  const bare = ip.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(bare.split('%')[0]!);
  if (family === 4) return V4_RANGES.find((range) => within(v4(bare), 32, range))?.[2];
  if (family !== 6) return 'not an IP';
  const address = v6(bare);
  const embedding = EMBEDDING_V4.find((range) => within(address, 128, range));
  if (embedding) {
    const inner = (address >> embedding[2]) & 0xffffffffn;
    const dotted = [24n, 16n, 8n, 0n].map((shift) => String((inner >> shift) & 0xffn)).join('.');
    return nonPublicRange(dotted);
  }
  const special = V6_RANGES.find((range) => within(address, 128, range))?.[2];
  return special ?? (within(address, 128, [v6('2000::'), 3]) ? undefined : 'reserved');
}

export const isLoopbackAddress = (ip: string): boolean => nonPublicRange(ip) === 'loopback';

/** Host names that only ever mean this machine or a private network. */
const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.localdomain', '.home.arpa'];
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
const isLoopbackName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/** The local exception applies to this URL: a loopback host, and the policy allows it. */
const loopbackAllowed = (host: string, policy: DestinationPolicy) =>
  policy.allowLoopback && (isLoopbackName(host) || (isIP(host) !== 0 && isLoopbackAddress(host)));

/**
 * The first rule a destination URL breaks, as a phrase that completes "url …", or undefined when it breaks none.
 * Static rules only (scheme, credentials, literal addresses, local names); `destinationProblem` also resolves the name.
 */
export function urlProblem(text: string, policy: DestinationPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not contain credentials (user:password@)';
  const host = hostOf(url);
  const local = loopbackAllowed(host, policy);
  if (url.protocol !== 'https:' && !(local && url.protocol === 'http:')) {
    return policy.allowLoopback ? 'must use https (http only to a loopback host: localhost, 127.0.0.1, [::1])' : 'must use https';
  }
  if (local) return undefined;
  if (isIP(host)) {
    const range = nonPublicRange(host);
    return range && `must not point to a non-public address (${host} is ${range})`;
  }
  if (isLoopbackName(host)) return `must not point to a non-public address (${host} is loopback)`;
  if (LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix)) || !host.includes('.')) return `must name a public host (${host} is a local name)`;
  return undefined;
}

/** How long creating an endpoint waits for DNS; a name that does not resolve (yet) is checked again at delivery. */
const RESOLVE_TIMEOUT_MS = 2_000;

/** Every address of a name; none when it does not resolve within RESOLVE_TIMEOUT_MS. */
const resolveAll = (host: string): Promise<LookupAddress[]> =>
  Promise.race([
    new Promise<LookupAddress[]>((resolve) => dnsLookup(host, { all: true }, (error, found) => resolve(error ? [] : found))),
    new Promise<LookupAddress[]>((resolve) => setTimeout(() => resolve([]), RESOLVE_TIMEOUT_MS).unref()),
  ]);

/**
 * `urlProblem`, then the name's addresses: every one must be public. A name that does not resolve passes here (it
 * may be set up later); delivery resolves it again with `guardedLookup` and refuses it then.
 */
export async function destinationProblem(text: string, policy: DestinationPolicy, resolve = resolveAll): Promise<string | undefined> {
  const problem = urlProblem(text, policy);
  if (problem) return problem;
  const host = hostOf(new URL(text));
  if (isIP(host) || loopbackAllowed(host, policy)) return undefined;
  const addresses = await resolve(host);
  const refused = addresses.map(({ address }) => ({ address, range: nonPublicRange(address) })).find(({ range }) => range);
  return refused && `must not resolve to a non-public address (${host} → ${refused.address}, ${refused.range})`;
}

/** Refused by the destination policy (the address is not public); `code` lets callers tell it from network errors. */
export class DestinationRefused extends Error {
  readonly code = 'EDESTINATIONREFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'DestinationRefused';
  }
}

/**
 * A `lookup` for node:http(s) requests: resolves every address of the name, refuses the connection if any one is
 * not public (DNS rebinding: a name that passed at creation may point inward now), and hands the socket the very
 * address it checked, so nothing resolves the name a second time. IP literals never reach a lookup: check the URL
 * with `urlProblem` first.
 */
export function guardedLookup(policy: DestinationPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family, hints: options.hints }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const allowed = (ip: string) => !nonPublicRange(ip) || (policy.allowLoopback && isLoopbackAddress(ip));
      const refused = addresses.find(({ address }) => !allowed(address));
      if (refused || addresses.length === 0) {
        const reason = refused ? `${hostname} resolves to ${refused.address} (${nonPublicRange(refused.address)})` : `${hostname} has no address`;
        return callback(new DestinationRefused(reason), '', 0);
      }
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
