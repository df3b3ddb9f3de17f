// Which private targets an operator allows (ALLOW_PRIVATE_TARGETS, README "Game servers on this machine or your
// network"): none by default, for shared hosting; every one with `true`; or exactly a list of CIDR ranges, addresses
// and host names, each with an optional port: `192.168.1.0/24,127.0.0.1:25575,minecraft.lan:8192`. A public address
// is always allowed; this only widens what the SSRF guard (net/ssrf-guard.ts) lets through.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * One entry of the list. Plain data (a range as its CIDR text): the configuration travels to the worker threads by
 * structured clone, which keeps no class instances.
 */
export type PrivateTargetRule = { kind: 'range'; cidr: string; port: number | null } | { kind: 'host'; host: string; port: number | null };

/** Parsed ranges by their CIDR text. */
const ranges = new Map<string, [Address, number]>();
function rangeOf(cidr: string): [Address, number] {
  let range = ranges.get(cidr);
  if (!range) ranges.set(cidr, (range = ipaddr.parseCIDR(cidr) as [Address, number]));
  return range;
}

export interface PrivateTargets {
  /** `true`: every private target (a trusted single-owner install). */
  all: boolean;
  rules: PrivateTargetRule[];
}

export const NO_PRIVATE_TARGETS: PrivateTargets = { all: false, rules: [] };
export const ALL_PRIVATE_TARGETS: PrivateTargets = { all: true, rules: [] };

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off', '']);
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$/i;

/** An address in one form: IPv4-mapped IPv6 as the IPv4 address it carries. */
function normalized(address: string): Address | null {
  if (!ipaddr.isValid(address)) return null;
  const parsed = ipaddr.parse(address);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
}

/** A host as URLs and sockets give it: without IPv6 brackets or a trailing dot, lower case. */
export const bareHost = (host: string) =>
  host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();

function parsePort(text: string, entry: string): number | string {
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 65535) return `"${entry}": the port must be a number from 1 to 65535`;
  return Number(text);
}

/** One entry of the list, or why it is not one. */
function parseRule(entry: string): PrivateTargetRule | string {
  let target = entry;
  let port: number | null = null;
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(entry);
  if (bracketed) {
    target = bracketed[1];
    if (bracketed[2] !== undefined) {
      const parsed = parsePort(bracketed[2], entry);
      if (typeof parsed === 'string') return parsed;
      port = parsed;
    }
  } else if ((entry.match(/:/g) ?? []).length === 1) {
    const at = entry.lastIndexOf(':');
    target = entry.slice(0, at);
    const parsed = parsePort(entry.slice(at + 1), entry);
    if (typeof parsed === 'string') return parsed;
    port = parsed;
  }
  if (target.includes('/')) {
    try {
      const [range, bits] = ipaddr.parseCIDR(target);
      const base = normalized(range.toString()) ?? range;
      return { kind: 'range', cidr: `${base.toString()}/${base.kind() !== range.kind() ? bits - 96 : bits}`, port };
    } catch {
      return `"${entry}" is not a CIDR range (as 192.168.1.0/24 or fd00::/8)`;
    }
  }
  const address = normalized(target);
  if (address) return { kind: 'range', cidr: `${address.toString()}/${address.kind() === 'ipv4' ? 32 : 128}`, port };
  if (isIP(target) === 0 && HOST_NAME.test(bareHost(target))) return { kind: 'host', host: bareHost(target), port };
  return `"${entry}" is not an address, a CIDR range or a host name (each may end in :port; an IPv6 address with a port in brackets)`;
}

/**
 * ALLOW_PRIVATE_TARGETS: true or false (and their usual spellings), or a comma-separated list. Every entry that is not
 * one is named in the errors.
 */
export function parsePrivateTargets(raw: string | undefined): { value: PrivateTargets; errors: string[] } {
  const text = (raw ?? '').trim();
  if (TRUE.has(text.toLowerCase())) return { value: ALL_PRIVATE_TARGETS, errors: [] };
  if (FALSE.has(text.toLowerCase())) return { value: NO_PRIVATE_TARGETS, errors: [] };
  const rules: PrivateTargetRule[] = [];
  const errors: string[] = [];
  for (const entry of text.split(',').map((e) => e.trim())) {
    if (!entry) continue;
    const rule = parseRule(entry);
    if (typeof rule === 'string') errors.push(rule);
    else rules.push(rule);
  }
  return { value: { all: false, rules }, errors };
}

/**
 * True when the operator allows `address` (a non-public one) reached as `host` on `port`: a range holding the address,
 * or the host's own name, with the rule's port if it names one.
 */
export function allowsPrivate(policy: PrivateTargets, host: string, address: string, port: number): boolean {
  if (policy.all) return true;
  if (policy.rules.length === 0) return false;
  const parsed = normalized(bareHost(address));
  const name = bareHost(host);
  return policy.rules.some((rule) => {
    if (rule.port !== null && rule.port !== port) return false;
    if (rule.kind === 'host') return rule.host === name;
    if (parsed === null) return false;
    const range = rangeOf(rule.cidr);
    return parsed.kind() === range[0].kind() && parsed.match(range as [ipaddr.IPv4, number]);
  });
}

/** The entry that allows exactly this target: `host:port` for a name (every address it resolves to), `address:port` for an address. */
export function entryFor(host: string, port: number): string {
  const name = bareHost(host);
  const target = isIP(name) ? (normalized(name)?.toString() ?? name) : name;
  return isIP(target) === 6 ? `[${target}]:${port}` : `${target}:${port}`;
}

/** What a refusal says an operator can do about it. */
export function privateTargetsHint(host: string, port: number): string {
  return `if it is your own game server or service, add ${entryFor(host, port)} to ALLOW_PRIVATE_TARGETS (a comma-separated list of addresses, CIDR ranges and host names, each with an optional :port; true allows every private target)`;
}
