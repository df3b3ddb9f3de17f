import { describe, it, expect } from 'vitest';
import { ALL_PRIVATE_TARGETS as ALL, NO_PRIVATE_TARGETS as NONE, parsePrivateTargets, privateTargetsHint } from '../config/private-targets.js';
import { BlockedTargetError, checkHostShape, checkUrlShape, checkUrlTarget, describeBlocked, guardedLookup, isPublicAddress } from './ssrf-guard.js';

describe('isPublicAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local / cloud metadata'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'documentation (TEST-NET-1)'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'IPv6 link-local with a zone'],
    ['fc00::1', 'IPv6 unique local'],
    ['fd00:ec2::254', 'AWS IPv6 metadata (unique local)'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex form'],
    ['64:ff9b::7f00:1', 'NAT64 prefix'],
    ['2002:7f00:1::', '6to4'],
    ['2001:db8::1', 'IPv6 documentation'],
  ])('%s is not public (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['1.1.1.1', '8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2001:4860:4860::8888', '::ffff:1.1.1.1'])(
    '%s is public',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it.each(['', 'localhost', 'example.com', '999.1.1.1', 'not an ip'])('%j is not a valid address, so not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('checkUrlShape', () => {
  it('accepts public http and https URLs', () => {
    expect(checkUrlShape('https://discord.com/api/webhooks/1/abc', NONE)).toBeNull();
    expect(checkUrlShape('http://example.com:8080/hook?x=1', NONE)).toBeNull();
    expect(checkUrlShape('http://1.1.1.1/', NONE)).toBeNull();
    expect(checkUrlShape('https://[2606:4700:4700::1111]/', NONE)).toBeNull();
  });

  it('refuses strings that are not absolute URLs', () => {
    expect(checkUrlShape('not a url', NONE)).toBe('must be a valid absolute URL');
    expect(checkUrlShape('/relative/path', ALL)).toBe('must be a valid absolute URL');
    expect(checkUrlShape('', ALL)).toBe('must be a valid absolute URL');
  });

  it.each(['ftp://example.com/file', 'file:///etc/passwd', 'gopher://example.com:70/_x', 'javascript:alert(1)', 'ws://example.com/', 'data:text/plain,hi'])(
    'refuses the non-http scheme of %s, even with every private target allowed',
    (url) => {
      expect(checkUrlShape(url, NONE)).toBe('must use http or https');
      expect(checkUrlShape(url, ALL)).toBe('must use http or https');
    },
  );

  it.each(['https://user:pass@example.com/', 'https://user@example.com/', 'http://:secret@example.com/'])(
    'refuses credentials in %s, even with every private target allowed',
    (url) => {
      expect(checkUrlShape(url, NONE)).toBe('must not contain credentials');
      expect(checkUrlShape(url, ALL)).toBe('must not contain credentials');
    },
  );

  it.each([
    ['http://localhost', 'localhost:80'],
    ['http://localhost:3000/hook', 'localhost:3000'],
    ['http://LOCALHOST/', 'localhost:80'],
    ['https://api.localhost/', 'api.localhost:443'],
  ])('refuses %s as this machine, naming the entry that allows it', (url, entry) => {
    const host = entry.split(':')[0];
    expect(checkUrlShape(url, NONE)).toBe(`must not target ${host}, this machine; ${privateTargetsHint(host, Number(entry.split(':')[1]))}`);
    expect(checkUrlShape(url, NONE)).toContain(`add ${entry} to ALLOW_PRIVATE_TARGETS`);
    expect(checkUrlShape(url, ALL)).toBeNull();
    expect(checkUrlShape(url, parsePrivateTargets(entry).value)).toBeNull();
  });

  it.each([
    ['http://127.0.0.1', '127.0.0.1'],
    ['http://127.0.0.1:8080/x', '127.0.0.1'],
    ['http://[::1]/', '::1'],
    ['http://0x7f000001/', '127.0.0.1'], // WHATWG URL normalises the hex form
    ['http://2130706433/', '127.0.0.1'], // ...and the decimal form
    ['http://0177.0.0.1/', '127.0.0.1'], // ...and the octal form
    ['http://127.1/', '127.0.0.1'], // ...and the short form
    ['http://10.0.0.5/', '10.0.0.5'],
    ['http://192.168.0.10/', '192.168.0.10'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://0.0.0.0/', '0.0.0.0'],
    ['http://[fd00:ec2::254]/', 'fd00:ec2::254'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
  ])('refuses the non-public literal %s unless allowed', (url, host) => {
    const port = Number(new URL(url).port) || 80;
    expect(checkUrlShape(url, NONE)).toBe(`must not target ${host}, a non-public address; ${privateTargetsHint(host, port)}`);
    expect(checkUrlShape(url, ALL)).toBeNull();
  });

  it('does not resolve names (a hostname passes the static check)', () => {
    expect(checkUrlShape('https://hooks.example.com/x', NONE)).toBeNull();
  });
});

describe('ALLOW_PRIVATE_TARGETS as a list', () => {
  const lan = parsePrivateTargets('192.168.1.0/24,127.0.0.1:25575,minecraft.lan:8192,[::1]:9000').value;

  it('allows an address in a listed range on any port, and a listed address only on its port', () => {
    expect(checkHostShape('192.168.1.20', 25565, lan)).toBeNull();
    expect(checkHostShape('192.168.1.250', 80, lan)).toBeNull();
    expect(checkHostShape('127.0.0.1', 25575, lan)).toBeNull();
    expect(checkHostShape('::ffff:127.0.0.1', 25575, lan)).toBeNull();
    expect(checkHostShape('[::1]', 9000, lan)).toBeNull();
  });

  it('still refuses what the list does not name, saying what to add', () => {
    expect(checkHostShape('127.0.0.1', 8080, lan)).toContain('add 127.0.0.1:8080 to ALLOW_PRIVATE_TARGETS');
    expect(checkHostShape('192.168.2.1', 25565, lan)).toContain('add 192.168.2.1:25565 to ALLOW_PRIVATE_TARGETS');
    expect(checkHostShape('169.254.169.254', 80, lan)).toContain('a non-public address');
    expect(checkHostShape('::1', 9001, lan)).toContain('add [::1]:9001 to ALLOW_PRIVATE_TARGETS');
  });

  it('allows a listed name as it resolves, on its port only', async () => {
    const resolve = async () => [{ address: '10.1.2.3', family: 4 }];
    await expect(checkUrlTarget('http://minecraft.lan:8192/', lan, resolve)).resolves.toBeNull();
    await expect(checkUrlTarget('http://minecraft.lan:8193/', lan, resolve)).resolves.toContain('add minecraft.lan:8193 to ALLOW_PRIVATE_TARGETS');
    await expect(checkUrlTarget('http://other.lan:8192/', lan, resolve)).resolves.toContain('other.lan resolves to 10.1.2.3');
  });

  it('checks the port at connect time too (a name that later resolves to a listed address, on another port)', async () => {
    const rebinding = async () => [{ address: '127.0.0.1', family: 4 }];
    const lookup = (port: number) =>
      new Promise<unknown>((resolve) => guardedLookup(rebinding, lan, port)('evil.example', {}, (err, address) => resolve(err ?? address)));
    expect(await lookup(25575)).toBe('127.0.0.1');
    const refused = (await lookup(6379)) as BlockedTargetError;
    expect(refused).toBeInstanceOf(BlockedTargetError);
    expect(refused.message).toContain('add evil.example:6379 to ALLOW_PRIVATE_TARGETS');
  });
});

describe('checkUrlTarget', () => {
  it('returns the shape error first', async () => {
    await expect(checkUrlTarget('ftp://example.com/', NONE)).resolves.toBe('must use http or https');
    await expect(checkUrlTarget('ftp://example.com/', ALL)).resolves.toBe('must use http or https');
    await expect(checkUrlTarget('http://127.0.0.1/', NONE)).resolves.toBe(
      `must not target 127.0.0.1, a non-public address; ${privateTargetsHint('127.0.0.1', 80)}`,
    );
    await expect(checkUrlTarget('http://[::1]:9000/', NONE)).resolves.toBe(`must not target ::1, a non-public address; ${privateTargetsHint('::1', 9000)}`);
    await expect(checkUrlTarget('http://localhost/', NONE)).resolves.toBe(`must not target localhost, this machine; ${privateTargetsHint('localhost', 80)}`);
  });

  it('accepts a public literal without any DNS lookup', async () => {
    await expect(checkUrlTarget('http://1.1.1.1/hook', NONE)).resolves.toBeNull();
    await expect(checkUrlTarget('https://[2606:4700:4700::1111]/hook', NONE)).resolves.toBeNull();
  });

  it('accepts anything well-formed when every private target is allowed (no DNS lookup)', async () => {
    await expect(checkUrlTarget('http://127.0.0.1:3000/', ALL)).resolves.toBeNull();
    await expect(checkUrlTarget('http://localhost./', ALL)).resolves.toBeNull();
  });

  it('refuses localhost. (trailing dot) whether or not the resolver knows it', async () => {
    // Depending on the resolver, "localhost." is unresolvable or resolves to loopback: refused either way.
    const result = await checkUrlTarget('http://localhost./', NONE);
    expect(result).not.toBeNull();
    expect(result).toMatch(/localhost|could not be resolved|non-public address/);
  });
});

describe('describeBlocked / BlockedTargetError', () => {
  it('names the host, the address, and the entry an operator would add', () => {
    expect(describeBlocked('evil.example', '10.0.0.1', 443)).toContain('evil.example resolves to 10.0.0.1');
    expect(describeBlocked('evil.example', '10.0.0.1', 443)).toContain('add evil.example:443 to ALLOW_PRIVATE_TARGETS');
    expect(describeBlocked('evil.example', '10.0.0.1', 443)).toContain('true allows every private target');
  });

  it('carries the BLOCKED_TARGET code', () => {
    const error = new BlockedTargetError('x');
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('BLOCKED_TARGET');
    expect(error.message).toBe('x');
  });
});
