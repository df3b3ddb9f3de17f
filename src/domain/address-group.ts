// The sender a hook request log bound counts by (README "Hook request log"): an IPv4 address as it is, an IPv6
// address by its /64. One IPv6 subscriber is usually given a whole /64, so counting its addresses apart would let one
// sender take as many shares of a bound (and as many drop-count rows) as it has addresses: about 2^64.
import { isIPv6 } from 'node:net';

/** `2001:db8:1:2::/64` for any IPv6 address in that /64; anything else (IPv4, an IPv4-mapped address, `unknown`) as is. */
export function addressGroup(ip: string): string {
  const address = ip.split('%')[0];
  if (!isIPv6(address) || address.includes('.')) return ip;
  const [head, tail = null] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === null || tail === '' ? [] : tail.split(':');
  const groups = tail === null ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
