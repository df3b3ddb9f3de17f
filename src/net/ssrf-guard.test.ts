import { describe, it, expect } from 'vitest';
import { BlockedTargetError, PRIVATE_TARGETS_HINT, checkUrlShape, checkUrlTarget, describeBlocked, isPublicAddress } from './ssrf-guard.js';

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
    expect(checkUrlShape('https://discord.com/api/webhooks/1/abc', false)).toBeNull();
    expect(checkUrlShape('http://example.com:8080/hook?x=1', false)).toBeNull();
    expect(checkUrlShape('http://1.1.1.1/', false)).toBeNull();
    expect(checkUrlShape('https://[2606:4700:4700::1111]/', false)).toBeNull();
  });

  it('refuses strings that are not absolute URLs', () => {
    expect(checkUrlShape('not a url', false)).toBe('must be a valid absolute URL');
    expect(checkUrlShape('/relative/path', true)).toBe('must be a valid absolute URL');
    expect(checkUrlShape('', true)).toBe('must be a valid absolute URL');
  });

  it.each(['ftp://example.com/file', 'file:///etc/passwd', 'gopher://example.com:70/_x', 'javascript:alert(1)', 'ws://example.com/', 'data:text/plain,hi'])(
    'refuses the non-http scheme of %s, even with allowPrivate',
    (url) => {
      expect(checkUrlShape(url, false)).toBe('must use http or https');
      expect(checkUrlShape(url, true)).toBe('must use http or https');
    },
  );

  it.each(['https://user:pass@example.com/', 'https://user@example.com/', 'http://:secret@example.com/'])(
    'refuses credentials in %s, even with allowPrivate',
    (url) => {
      expect(checkUrlShape(url, false)).toBe('must not contain credentials');
      expect(checkUrlShape(url, true)).toBe('must not contain credentials');
    },
  );

  it.each(['http://localhost', 'http://localhost:3000/hook', 'http://LOCALHOST/', 'http://api.localhost/'])('refuses %s as localhost', (url) => {
    expect(checkUrlShape(url, false)).toBe(`must not target localhost; ${PRIVATE_TARGETS_HINT}`);
    expect(checkUrlShape(url, true)).toBeNull();
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
  ])('refuses the non-public literal %s unless allowPrivate', (url, host) => {
    expect(checkUrlShape(url, false)).toBe(`must not target ${host}, a non-public address; ${PRIVATE_TARGETS_HINT}`);
    expect(checkUrlShape(url, true)).toBeNull();
  });

  it('does not resolve names (a hostname passes the static check)', () => {
    expect(checkUrlShape('https://hooks.example.com/x', false)).toBeNull();
  });
});

describe('checkUrlTarget', () => {
  it('returns the shape error first', async () => {
    await expect(checkUrlTarget('ftp://example.com/', false)).resolves.toBe('must use http or https');
    await expect(checkUrlTarget('ftp://example.com/', true)).resolves.toBe('must use http or https');
    await expect(checkUrlTarget('http://127.0.0.1/', false)).resolves.toBe(`must not target 127.0.0.1, a non-public address; ${PRIVATE_TARGETS_HINT}`);
    await expect(checkUrlTarget('http://[::1]:9000/', false)).resolves.toBe(`must not target ::1, a non-public address; ${PRIVATE_TARGETS_HINT}`);
    await expect(checkUrlTarget('http://localhost/', false)).resolves.toBe(`must not target localhost; ${PRIVATE_TARGETS_HINT}`);
  });

  it('accepts a public literal without any DNS lookup', async () => {
    await expect(checkUrlTarget('http://1.1.1.1/hook', false)).resolves.toBeNull();
    await expect(checkUrlTarget('https://[2606:4700:4700::1111]/hook', false)).resolves.toBeNull();
  });

  it('accepts anything well-formed when private targets are allowed (no DNS lookup)', async () => {
    await expect(checkUrlTarget('http://127.0.0.1:3000/', true)).resolves.toBeNull();
    await expect(checkUrlTarget('http://localhost./', true)).resolves.toBeNull();
  });

  it('refuses localhost. (trailing dot) whether or not the resolver knows it', async () => {
    // Depending on the resolver, "localhost." is unresolvable or resolves to loopback: refused either way.
    const result = await checkUrlTarget('http://localhost./', false);
    expect(result).not.toBeNull();
    expect(result).toMatch(/localhost|could not be resolved|non-public address/);
  });
});

describe('describeBlocked / BlockedTargetError', () => {
  it('names the host, the address, and the setting for operators testing on a private network', () => {
    expect(describeBlocked('evil.example', '10.0.0.1')).toContain('evil.example resolves to 10.0.0.1');
    expect(describeBlocked('evil.example', '10.0.0.1')).toContain('ALLOW_PRIVATE_TARGETS=true');
  });

  it('carries the BLOCKED_TARGET code', () => {
    const error = new BlockedTargetError('x');
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('BLOCKED_TARGET');
    expect(error.message).toBe('x');
  });
});
