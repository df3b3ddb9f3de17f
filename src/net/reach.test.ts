import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import { addressWarningLines, addressWarnings, reachOf } from './reach.js';

describe('reachOf: who can reach an address given out', () => {
  it.each([
    ['localhost', 'machine'],
    ['LOCALHOST.', 'machine'],
    ['votes.localhost', 'machine'],
    ['127.0.0.1', 'machine'],
    ['[::1]', 'machine'],
    ['0.0.0.0', 'machine'],
    ['192.168.1.20', 'network'],
    ['10.0.0.5', 'network'],
    ['172.16.3.4', 'network'],
    ['[fd00::5]', 'network'],
    ['169.254.1.1', 'network'],
    ['::ffff:192.168.1.2', 'network'],
    ['myserver', 'network'],
    ['relay.lan', 'network'],
    ['relay.home.arpa', 'network'],
    ['votes.example.com', 'anyone'],
    ['203.0.113.7', 'network'], // documentation range: not globally routable
    ['8.8.8.8', 'anyone'],
    ['[2606:4700:4700::1111]', 'anyone'],
  ])('%s: %s', (host, reach) => {
    expect(reachOf(host)).toBe(reach);
  });
});

describe('the warnings about addresses no site can reach', () => {
  it('the default PUBLIC_BASE_URL: one start-up line naming it, for the hook URLs and the Votifier address alike', () => {
    const config = loadConfig({ VOTIFIER_PORT: '8192' });
    expect(addressWarningLines(config)).toEqual([
      'PUBLIC_BASE_URL is http://localhost:3000 (the default), an address only this machine can reach: the hook URLs and the Votifier address localhost:8192 given to voting sites will not receive votes; set PUBLIC_BASE_URL to the address the sites reach this service at (https://votes.example.com)',
    ]);
    expect(addressWarnings(config)).toEqual({
      hooks: 'This address can only be reached from this machine: set PUBLIC_BASE_URL',
      votifier: 'This address can only be reached from this machine: set PUBLIC_BASE_URL',
    });
  });

  it('a LAN address names its network, and a Votifier host set apart is its own line', () => {
    const config = loadConfig({ PUBLIC_BASE_URL: 'http://192.168.1.20:3000', VOTIFIER_HOST: 'localhost', VOTIFIER_PORT: '8192' });
    expect(addressWarningLines(config)).toEqual([
      "PUBLIC_BASE_URL is http://192.168.1.20:3000, an address only this machine's network can reach: the hook URLs given to voting sites will not receive votes; set PUBLIC_BASE_URL to the address the sites reach this service at (https://votes.example.com)",
      'the Votifier address given to lists is localhost:8192, which only this machine can reach: lists will not deliver votes to it; set VOTIFIER_HOST to the host name or address the lists reach this machine at',
    ]);
    expect(addressWarnings(config).votifier).toBe('This address can only be reached from this machine: set VOTIFIER_HOST');
  });

  it('says nothing for a public address, and nothing about Votifier when its listener is off', () => {
    expect(addressWarningLines(loadConfig({ PUBLIC_BASE_URL: 'https://votes.example.com', VOTIFIER_PORT: '8192' }))).toEqual([]);
    const hooksOnly = loadConfig({ PUBLIC_BASE_URL: 'https://votes.example.com', HOOK_BASE_URL: 'http://10.1.1.1/hooks', VOTIFIER_PORT: '0' });
    expect(addressWarnings(hooksOnly)).toEqual({ hooks: "This address can only be reached from this machine's network: set HOOK_BASE_URL", votifier: null });
    expect(addressWarningLines(hooksOnly)).toHaveLength(1);
    expect(addressWarningLines(hooksOnly)[0]).toMatch(/^HOOK_BASE_URL is http:\/\/10\.1\.1\.1\/hooks, an address only this machine's network can reach/);
  });
});
