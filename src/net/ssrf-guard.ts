// Refuses outbound requests to loopback, private, link-local, multicast, metadata and other non-public addresses
// (IPv4 and IPv6, IPv4-mapped forms included) unless ALLOW_PRIVATE_TARGETS is on. Checked when a URL is saved
// and again at connect time (DNS may change between the two), through the HTTP client's lookup hook.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export class BlockedTargetError extends Error {
  readonly code = 'BLOCKED_TARGET';
}

/** Only globally routable unicast addresses are public; every special range is refused. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  // ::a.b.c.d (IPv4-compatible, deprecated) reaches IPv4 space on some stacks: never public.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) return false;
  return parsed.range() === 'unicast';
}

/** Said with every refusal of a non-public target: an operator testing on a private network needs to know the switch. */
export const PRIVATE_TARGETS_HINT = 'an operator testing on a private network may set ALLOW_PRIVATE_TARGETS=true';

export function describeBlocked(host: string, address: string): string {
  return `${host} resolves to ${address}, a private, loopback, link-local or otherwise non-public address; ${PRIVATE_TARGETS_HINT}`;
}

/** Static part of the check: scheme and literal IP hosts. Returns an error message or null. */
export function checkUrlShape(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be a valid absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use http or https';
  if (url.username || url.password) return 'must not contain credentials';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return `must not target localhost; ${PRIVATE_TARGETS_HINT}`;
  if (isIP(host) && !isPublicAddress(host)) return `must not target ${host}, a non-public address; ${PRIVATE_TARGETS_HINT}`;
  return null;
}

/** Resolves a host name to every address (injectable so tests can play DNS that changes). */
export type Resolver = (host: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

/** Full check used when a URL is saved: shape, then every address the name resolves to. */
export async function checkUrlTarget(raw: string, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<string | null> {
  const shape = checkUrlShape(raw, allowPrivate);
  if (shape || allowPrivate) return shape;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return null;
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    return `host ${host} could not be resolved`;
  }
  const blocked = addresses.find((a) => !isPublicAddress(a.address));
  return blocked ? `must not target ${describeBlocked(host, blocked.address)}` : null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for net.connect that refuses non-public answers (DNS rebinding cannot slip past a saved check). */
export function guardedLookup(resolve: Resolver = systemResolver) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname).then(
      (addresses) => {
        const blocked = addresses.find((a) => !isPublicAddress(a.address));
        if (blocked) return callback(new BlockedTargetError(describeBlocked(hostname, blocked.address)), []);
        if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}
