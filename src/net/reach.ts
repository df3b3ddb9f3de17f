// Whether the addresses Vote Relay gives out (hook URLs, the Votifier host) can be reached by a voting site (README
// "First steps", an address the sites can reach): an address of this machine, or of a private network, cannot. Said
// at start-up (app.ts) and on the dashboard's provider pages (GraphQL Organization.hookAddressWarning and votifierAddressWarning).
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Config } from '../config/config.js';
import { bareHost } from '../config/private-targets.js';

/** Who can reach a host: only this machine, only its network, or (as far as its name tells) anyone. */
export type Reach = 'machine' | 'network' | 'anyone';

/** Names that only a local network resolves. */
const LOCAL_SUFFIXES = ['.local', '.lan', '.home', '.internal', '.intranet', '.corp', '.home.arpa', '.localdomain'];

export function reachOf(host: string): Reach {
  const bare = bareHost(host);
  if (bare === 'localhost' || bare.endsWith('.localhost')) return 'machine';
  if (isIP(bare)) {
    let address = ipaddr.parse(bare);
    if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) address = (address as ipaddr.IPv6).toIPv4Address();
    const range = address.range();
    if (range === 'loopback' || range === 'unspecified') return 'machine';
    return range === 'unicast' ? 'anyone' : 'network';
  }
  // A name without a dot (a machine's own name) or under a local-only suffix.
  if (!bare.includes('.') || LOCAL_SUFFIXES.some((suffix) => bare.endsWith(suffix))) return 'network';
  return 'anyone';
}

/** The sentence a provider page shows for an address of that reach, naming the setting to change. */
function unreachable(reach: Reach, setting: string): string | null {
  if (reach === 'anyone') return null;
  return reach === 'machine'
    ? `This address can only be reached from this machine: set ${setting}`
    : `This address can only be reached from this machine's network: set ${setting}`;
}

export interface AddressWarnings {
  /** The hook URLs' (HOOK_BASE_URL, else PUBLIC_BASE_URL). */
  hooks: string | null;
  /** The Votifier host's (VOTIFIER_HOST, else PUBLIC_BASE_URL's host); null when the listener is off. */
  votifier: string | null;
}

/** What is wrong with the addresses given out, for the provider pages. */
export function addressWarnings(config: Config): AddressWarnings {
  const hookSetting = config.addressSettings.hooks;
  const votifierSetting = config.addressSettings.votifier;
  return {
    hooks: unreachable(reachOf(new URL(config.hookBaseUrl).hostname), hookSetting),
    votifier: config.votifierPort === 0 ? null : unreachable(reachOf(config.votifierHost), votifierSetting),
  };
}

/**
 * The start-up log's lines (one per setting at fault, at warn): what the address is, who can reach it, and the
 * setting that changes it.
 */
export function addressWarningLines(config: Config): string[] {
  const lines: string[] = [];
  const hooksReach = reachOf(new URL(config.hookBaseUrl).hostname);
  const votifierReach = config.votifierPort === 0 ? 'anyone' : reachOf(config.votifierHost);
  const who = (reach: Reach) => (reach === 'machine' ? 'only this machine' : "only this machine's network");
  const { hooks: hookSetting, votifier: votifierSetting } = config.addressSettings;
  const bothFromPublic = hookSetting === 'PUBLIC_BASE_URL' && votifierSetting === 'PUBLIC_BASE_URL' && hooksReach !== 'anyone' && votifierReach !== 'anyone';
  if (hooksReach !== 'anyone') {
    const value = hookSetting === 'PUBLIC_BASE_URL' ? config.publicBaseUrl : config.hookBaseUrl;
    const also = bothFromPublic ? ` and the Votifier address ${config.votifierHost}:${config.votifierPort}` : '';
    lines.push(
      `${hookSetting} is ${value}${hookSetting === 'PUBLIC_BASE_URL' && config.publicBaseUrlDefault ? ' (the default)' : ''}, an address ${who(hooksReach)} can reach: the hook URLs${also} given to voting sites will not receive votes; set ${hookSetting} to the address the sites reach this service at (https://votes.example.com)`,
    );
  }
  if (votifierReach !== 'anyone' && !bothFromPublic) {
    lines.push(
      `the Votifier address given to lists is ${config.votifierHost}:${config.votifierPort}, which ${who(votifierReach)} can reach: lists will not deliver votes to it; set ${votifierSetting} to the host name or address the lists reach this machine at`,
    );
  }
  return lines;
}
