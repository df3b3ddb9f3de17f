// A flood of refused requests against the hook request log (README "Hook request log", bounds): 10,000 wrong-secret
// deliveries from one address, over several keep-alive connections, while a real site keeps voting from another.
// The budgets are as configured, as a real flood meets them: the address's first refusals each minute are
// AUTH_FAILED (401), the rest RATE_LIMITED (429) before any lookup; every one of them is a refused request of the
// provider the URL names, which the log keeps or counts. Then a flood from many addresses (IPv4 addresses and one
// IPv6 /64), each under its budgets, so every request is looked up and refused 401. Measured and printed: rows kept,
// drop counts and their rows, growth. The client address is set with X-Forwarded-For: the test app runs with
// TRUST_PROXY's default, `loopback`, so a request from 127.0.0.1 is taken to come from the address it forwards.
import { statSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, dialect, startTestApp, type TestApp, type TestOrg } from '../kit/app.js';
import { MAX_DROP_ROWS, OTHER_SENDERS } from '../../src/storage/hook-log.js';
import { until } from '../kit/wait.js';

const FLOOD = 10_000;
const CONNECTIONS = 16;
const FLOODER = '203.0.113.9';
const SITE = '198.51.100.7';
const SECRET = 'site-secret-Fl00d-0123456789';

describe.skipIf(databaseUnavailable)('hook request log under a flood of refused requests', () => {
  let app: TestApp;
  let org: TestOrg;
  let providerId: string;
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });

  /** One POST over the keep-alive pool; resolves with the status. */
  function post(path: string, body: string, forwardedFor: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const url = new URL(path, app.url);
      const req = httpRequest(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-forwarded-for': forwardedFor },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  async function storageBytes(): Promise<number> {
    if (dialect === 'sqlite') {
      const path = app.deps.db.describe().location;
      const size = (p: string) => {
        try {
          return statSync(p).size;
        } catch {
          return 0;
        }
      };
      return size(path) + size(`${path}-wal`);
    }
    const rows = await app.deps.db.prisma.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT (pg_total_relation_size('"HookRequest"') + pg_total_relation_size('"HookRequestDrop"'))::bigint AS n`,
    );
    return Number(rows[0].n);
  }

  beforeAll(async () => {
    app = await startTestApp();
    org = await app.createOrg({ plan: 'business' });
    const made = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'site', name: 'Site', auth_method: 'url_path', auth_field: 's', auth_value: SECRET, votee_path: 'user' },
    });
    expect(made.status).toBe(201);
    providerId = made.body.data.id;
  });
  afterAll(async () => {
    agent.destroy();
    await app?.stop();
  });

  it(`${FLOOD.toLocaleString('en')} refused requests from one address keep the log within its bound, evict no accepted entry, and leave the site's votes answered`, async () => {
    const hookPath = `/hooks/${org.slug}/site`;
    // Accepted entries before the flood.
    for (let i = 0; i < 50; i++) expect(await post(`${hookPath}/${SECRET}`, JSON.stringify({ user: `Before${i}` }), SITE)).toBe(200);
    const before = await until(
      () => app.request('GET', '/v1/providers/site/requests?outcome=accepted&limit=100', { key: org.readKey }),
      (r) => r.body.meta?.total === 50,
    );
    const acceptedBefore = new Set(before.body.data.requests.map((e: { id: string }) => e.id));
    const bytesBefore = await storageBytes();

    // The real site votes every 250 ms while the flood runs (within the organization's hook budget).
    let flooding = true;
    const siteStatuses: number[] = [];
    const site = (async () => {
      for (let i = 0; flooding; i++) {
        siteStatuses.push(await post(`${hookPath}/${SECRET}`, JSON.stringify({ user: `During${i}` }), SITE));
        await new Promise((r) => setTimeout(r, 250));
      }
    })();

    const started = performance.now();
    let sent = 0;
    const statuses = new Map<number, number>();
    const worker = async () => {
      while (sent < FLOOD) {
        sent++;
        const status = await post(`${hookPath}/not-the-secret`, `{"user":"junk","n":${sent}}`, FLOODER);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS * 2 }, worker));
    const seconds = (performance.now() - started) / 1000;
    flooding = false;
    await site;
    const authFailed = statuses.get(401) ?? 0;
    expect(authFailed + (statuses.get(429) ?? 0)).toBe(FLOOD);
    // HOOK_FAILURE_LIMIT_PER_MINUTE refusals per minute window reach authentication; the rest are 429 at once.
    expect(authFailed).toBeGreaterThanOrEqual(app.config.hookFailureLimitPerMinute);
    expect(authFailed).toBeLessThanOrEqual(app.config.hookFailureLimitPerMinute * (Math.ceil(seconds / 60) + 1));
    expect(siteStatuses.length).toBeGreaterThan(10);
    expect(siteStatuses.every((s) => s === 200)).toBe(true);

    // Everything counted: kept refused entries plus the drop count is every request of the flood.
    const limits = app.config;
    const read = await until(
      () => app.request('GET', '/v1/providers/site/requests?outcome=refused&limit=1', { key: org.readKey }),
      (r) => r.body.meta.total + (r.body.data.dropped.find((d: { client_ip: string }) => d.client_ip === FLOODER)?.count ?? 0) === FLOOD,
      30_000,
    );
    const keptRefused = read.body.meta.total;
    const dropped = read.body.data.dropped.find((d: { client_ip: string }) => d.client_ip === FLOODER).count;
    expect(keptRefused).toBe(limits.hookLogMaxRefusedPerAddress);
    // What is kept says what is wrong: the 429s went first.
    const keptCodes = await app.deps.db.prisma.hookRequest.groupBy({ by: ['errorCode'], where: { providerId, outcome: 'refused' }, _count: true });
    expect(keptCodes.map((c) => [c.errorCode, c._count])).toEqual([['AUTH_FAILED', keptRefused]]);

    const accepted = await until(
      () => app.request('GET', '/v1/providers/site/requests?outcome=accepted&limit=100', { key: org.readKey }),
      (r) => r.body.meta.total === 50 + siteStatuses.length,
    );
    const acceptedIds = new Set<string>();
    for (let page = 1; page <= accepted.body.meta.pages; page++) {
      const res = await app.request('GET', `/v1/providers/site/requests?outcome=accepted&limit=100&page=${page}`, { key: org.readKey });
      for (const e of res.body.data.requests) acceptedIds.add(e.id);
    }
    for (const id of acceptedBefore) expect(acceptedIds.has(id as string)).toBe(true);

    const rows = await app.deps.db.prisma.hookRequest.count({ where: { providerId } });
    const bound = limits.hookLogMaxPerProvider + limits.hookLogMaxRefusedPerAddress * 20;
    expect(rows).toBe(50 + siteStatuses.length + keptRefused);
    expect(rows).toBeLessThanOrEqual(bound);
    const growth = (await storageBytes()) - bytesBefore;
    console.log(
      `[${dialect}] hook log flood: ${FLOOD} refused requests in ${seconds.toFixed(1)} s (${Math.round(FLOOD / seconds)}/s) over ${CONNECTIONS} keep-alive connections; ` +
        `${authFailed} answered 401 and ${FLOOD - authFailed} 429; ${siteStatuses.length} site votes during it, all 200; rows kept for the provider: ${rows} (${keptRefused} refused, ${rows - keptRefused} accepted; bound ${bound}); ` +
        `drop count for ${FLOODER}: ${dropped}; storage growth: ${(growth / 1024).toFixed(0)} KiB`,
    );
    // Bounded storage: a few hundred rows' worth at most, not 100,000 (SQLite's WAL may keep pages it already wrote).
    expect(growth).toBeLessThan(8 * 1024 * 1024);
  }, 280_000);

  it('a flood from 4,000 IPv4 addresses and 2,000 addresses of one IPv6 /64 keeps both tables within their bounds', async () => {
    const IPV4 = 4_000;
    const PER_IPV4 = 3;
    const IPV6 = 2_000;
    const SLASH_64 = '2001:db8:77:1';
    const secret = `${SECRET}-spread`;
    const made = await app.request('POST', '/v1/providers', {
      key: org.key,
      body: { key: 'spread', name: 'Spread', auth_method: 'url_path', auth_field: 's', auth_value: secret, votee_path: 'user' },
    });
    expect(made.status).toBe(201);
    const spreadId: string = made.body.data.id;
    const hookPath = `/hooks/${org.slug}/spread`;
    // Interleaved: every seventh request is from the /64, each from an address of its own.
    const ipv4 = Array.from({ length: IPV4 * PER_IPV4 }, (_, i) => `10.${40 + ((i % IPV4) >> 16)}.${((i % IPV4) >> 8) & 255}.${(i % IPV4) & 255}`);
    const ipv6 = Array.from({ length: IPV6 }, (_, i) => `${SLASH_64}:${(i >> 16).toString(16)}:${((i >> 8) & 255).toString(16)}:${(i & 255).toString(16)}:1`);
    const senders = Array.from({ length: ipv4.length + ipv6.length }, (_, i) => (i % 7 === 0 && ipv6.length > 0 ? ipv6.pop()! : (ipv4.pop() ?? ipv6.pop()!)));
    const bytesBefore = await storageBytes();
    let accepted = 0;
    const started = performance.now();
    let next = 0;
    const statuses = new Map<number, number>();
    const worker = async () => {
      for (let i = next++; i < senders.length; i = next++) {
        const status = await post(`${hookPath}/not-the-secret`, `{"user":"junk","n":${i}}`, senders[i]);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        // The real site votes now and then meanwhile.
        if (i % 500 === 0) {
          expect(await post(`${hookPath}/${secret}`, JSON.stringify({ user: `Spread${i}` }), SITE)).toBe(200);
          accepted++;
        }
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS * 2 }, worker));
    const seconds = (performance.now() - started) / 1000;
    // Every address stayed under its budgets: each request was looked up and refused for its secret.
    expect(statuses.get(401)).toBe(senders.length);
    await app.hookRequestLog.flush();

    const limits = app.config;
    const kept = await app.deps.db.prisma.hookRequest.count({ where: { providerId: spreadId, outcome: 'refused' } });
    const keptV6 = await app.deps.db.prisma.hookRequest.count({
      where: { providerId: spreadId, outcome: 'refused', clientIp: { startsWith: `${SLASH_64}:` } },
    });
    const drops = await app.deps.db.prisma.hookRequestDrop.findMany({ where: { providerId: spreadId } });
    const dropped = drops.reduce((n, d) => n + d.count, 0);
    const keptAccepted = await app.deps.db.prisma.hookRequest.count({ where: { providerId: spreadId, outcome: 'accepted' } });
    // Bounded: the scope's refused bound, the /64's per-sender bound, 100 drop rows and one for every other sender.
    expect(kept).toBeLessThanOrEqual(limits.hookLogMaxRefusedPerAddress * 20);
    expect(keptV6).toBeLessThanOrEqual(limits.hookLogMaxRefusedPerAddress);
    expect(drops.length).toBeLessThanOrEqual(MAX_DROP_ROWS + 1);
    // An IPv6 sender is its /64: one drop row, never one per address, and with what is kept, all its requests.
    const v6Drops = drops.filter((d) => d.clientIp.startsWith('2001:'));
    expect(v6Drops.map((d) => d.clientIp)).toEqual([`${SLASH_64}::/64`]);
    expect(keptV6 + v6Drops[0].count).toBe(IPV6);
    // Every refusal is kept or counted; every accepted entry is kept.
    expect(kept + dropped).toBe(senders.length);
    expect(keptAccepted).toBe(accepted);
    const other = drops.find((d) => d.clientIp === OTHER_SENDERS)?.count ?? 0;
    const growth = (await storageBytes()) - bytesBefore;
    console.log(
      `[${dialect}] hook log flood from many addresses: ${senders.length} refused requests (${IPV4} IPv4 addresses × ${PER_IPV4}, ${IPV6} addresses of one /64) in ${seconds.toFixed(1)} s, all 401; ` +
        `${accepted} site votes during it, all kept; refused rows kept: ${kept} (bound ${limits.hookLogMaxRefusedPerAddress * 20}), of the /64: ${keptV6} (bound ${limits.hookLogMaxRefusedPerAddress}); ` +
        `drop rows: ${drops.length} (bound ${MAX_DROP_ROWS + 1}), counting ${dropped} (${other} under "${OTHER_SENDERS}"); storage growth: ${(growth / 1024).toFixed(0)} KiB`,
    );
    // (The growth is printed, not bounded here: the row counts above are the bounds; SQLite's figure is the whole
    // file with its WAL, which keeps pages the trims rewrote until a checkpoint.)
  }, 240_000);
});
