// Refuses outbound requests to loopback, private, link-local, multicast, metadata and other non-public addresses
// (IPv4 and IPv6, IPv4-mapped forms included) unless the operator allows them (ALLOW_PRIVATE_TARGETS: all of them, or
// exactly a list: private-targets.ts). Checked when a URL is saved and again at connect time (DNS may change between
// the two), through the HTTP client's lookup hook, which knows the port it connects to.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { allowsPrivate, bareHost, privateTargetsHint, type PrivateTargets } from '../config/private-targets.js';

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

export function describeBlocked(host: string, address: string, port: number): string {
  return `${host} resolves to ${address}, a private, loopback, link-local or otherwise non-public address; ${privateTargetsHint(host, port)}`;
}

/** The port a URL connects to. */
export const urlPort = (url: URL) => Number(url.port) || (url.protocol === 'https:' ? 443 : 80);

/** Static part of the check: scheme and literal IP hosts. Returns an error message or null. */
export function checkUrlShape(raw: string, policy: PrivateTargets): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be a valid absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use http or https';
  if (url.username || url.password) return 'must not contain credentials';
  return checkHostShape(bareHost(url.hostname), urlPort(url), policy);
}

/**
 * A host and port about to be reached (a URL's, a Votifier server's, an RCON console's): refused when it is this
 * machine's name or a non-public literal address the operator does not allow. Names are checked as they resolve.
 */
export function checkHostShape(host: string, port: number, policy: PrivateTargets): string | null {
  if (policy.all) return null;
  const bare = bareHost(host);
  if (bare === 'localhost' || bare.endsWith('.localhost')) {
    if (allowsPrivate(policy, bare, '127.0.0.1', port) && allowsPrivate(policy, bare, '::1', port)) return null;
    return `must not target ${bare}, this machine; ${privateTargetsHint(bare, port)}`;
  }
  if (isIP(bare) && !isPublicAddress(bare) && !allowsPrivate(policy, bare, bare, port)) {
    return `must not target ${bare}, a non-public address; ${privateTargetsHint(bare, port)}`;
  }
  return null;
}

/** Resolves a host name to every address (injectable so tests can play DNS that changes). */
export type Resolver = (host: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

/** Full check used when a URL is saved: shape, then every address the name resolves to. */
export async function checkUrlTarget(raw: string, policy: PrivateTargets, resolve: Resolver = systemResolver): Promise<string | null> {
  const shape = checkUrlShape(raw, policy);
  if (shape || policy.all) return shape;
  const url = new URL(raw);
  const host = bareHost(url.hostname);
  if (isIP(host)) return null;
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    return `host ${host} could not be resolved`;
  }
  const blocked = refused(addresses, host, urlPort(url), policy);
  return blocked ? `must not target ${describeBlocked(host, blocked.address, urlPort(url))}` : null;
}

/** The first address that is neither public nor allowed for `host` on `port`. */
const refused = (addresses: LookupAddress[], host: string, port: number, policy: PrivateTargets) =>
  addresses.find((a) => !isPublicAddress(a.address) && !allowsPrivate(policy, host, a.address, port));

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for connections to `port` that refuses answers neither public nor allowed (DNS rebinding cannot slip past a
 * saved check).
 */
export function guardedLookup(resolve: Resolver, policy: PrivateTargets, port: number) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname).then(
      (addresses) => {
        const blocked = refused(addresses, hostname, port, policy);
        if (blocked) return callback(new BlockedTargetError(describeBlocked(hostname, blocked.address, port)), []);
        if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}
