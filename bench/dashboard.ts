// Dashboard benchmark: the gzipped size of the JavaScript and CSS the first page loads (budget: < 300 KB of JS),
// and the time from pressing Enter on the sign-in field to a rendered overview (counters and latest votes shown) in
// Debian's Chromium driven by playwright-core (budget: < 1 s with 10M votes). Baseline, in the same run: the
// overview's own GraphQL request (the same document, generated into web/src/gql) sent straight from Node.
//
// Data: the read benchmark's cached history, 10M votes by default: on SQLite /tmp/vote-relay-bench-read-<votes>.db
// (seed it with `BENCH_READ_SEED_ONLY=1 npx tsx bench/read.ts`); with DATABASE_URL=postgres://… the PostgreSQL database
// that the same command seeds on that server (described in /tmp/vote-relay-bench-read-<votes>.postgresql.json).
// Without it, the run uses an empty SQLite database and says so.
// Options: BENCH_READ_VOTES (10000000), BENCH_DASHBOARD_RUNS (15), CHROMIUM_PATH (/usr/bin/chromium), DATABASE_URL.
// Writes its section of BENCHMARKS.md: `dashboard` on SQLite, `dashboard-postgresql` on PostgreSQL.
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import http from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { print } from 'graphql';
import { chromium } from 'playwright-core';
import { OverviewDocument } from '../web/src/gql/graphql.js';
import { consoleTable, gitCommit, machineDescription, markdownTable, writeSection } from './lib/report.js';
import { benchDialect, benchPostgresServer, postgresDatabaseUrl } from './lib/database.js';
import { ROOT, createOrg, envNumber, percentile, serviceEnv, sortedCopy, startService, thousands } from './lib/service.js';

const VOTES = envNumber('BENCH_READ_VOTES', 10_000_000, true);
const RUNS = envNumber('BENCH_DASHBOARD_RUNS', 15, true);
const WARMUP = 2;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DIST = join(ROOT, 'web', 'dist');

if (!existsSync(CHROMIUM)) {
  console.error(`dashboard benchmark needs Chromium at ${CHROMIUM} (apt-get install chromium)`);
  process.exit(2);
}
if (!existsSync(join(DIST, 'index.html'))) {
  const vite = await import('vite');
  await vite.build({ configFile: join(ROOT, 'web', 'vite.config.ts'), logLevel: 'warn' });
}

// 1. What the first page loads: index.html's scripts, module preloads and stylesheets. Their compressed size is
//    measured below as the service sends them (Accept-Encoding: gzip), beside gzip -9 of the same files.
const html = readFileSync(join(DIST, 'index.html'), 'utf8');
const referenced = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]);
const gz = (file: string) => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;
const jsFiles = referenced.filter((f) => f.endsWith('.js'));
const cssFiles = referenced.filter((f) => f.endsWith('.css'));
const jsGzip9 = jsFiles.reduce((sum, f) => sum + gz(f), 0);
const jsRaw = jsFiles.reduce((sum, f) => sum + readFileSync(join(DIST, f)).length, 0);
const cssGzip9 = cssFiles.reduce((sum, f) => sum + gz(f), 0);
const allJs = readdirSync(join(DIST, 'assets')).filter((f) => f.endsWith('.js'));

/** Bytes on the wire for `path` when the client accepts gzip (node:http: nothing decodes the body). */
function wireBytes(base: string, path: string): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}/${path}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

// 2. The service on the cached history (or an empty database).
const PG_SERVER = benchPostgresServer();
const DIALECT = benchDialect();
const cacheBase = join(os.tmpdir(), `vote-relay-bench-read-${VOTES}`);
const metaFile = PG_SERVER ? `${cacheBase}.postgresql.json` : `${cacheBase}.json`;
const seeded = existsSync(metaFile) && (PG_SERVER !== null || existsSync(`${cacheBase}.db`));
let databaseUrl: string;
let apiKey: string;
let secretKey: string;
if (seeded) {
  const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as { apiKey: string; secretKey: string; database?: string };
  databaseUrl = PG_SERVER ? postgresDatabaseUrl(PG_SERVER, meta.database!) : `file:${cacheBase}.db`;
  ({ apiKey, secretKey } = meta);
} else {
  if (PG_SERVER) {
    console.error(`no seeded PostgreSQL history (${metaFile}): seed it with DATABASE_URL=… BENCH_READ_SEED_ONLY=1 npx tsx bench/read.ts`);
    process.exit(2);
  }
  console.warn(`no seeded history at ${cacheBase}.db: measuring on an empty database`);
  databaseUrl = `file:${join(mkdtempSync(join(os.tmpdir(), 'vote-relay-bench-dashboard-')), 'db.sqlite')}`;
  secretKey = 'bench-dashboard-secret-key-0123456789';
  apiKey = await createOrg(serviceEnv({ DATABASE_URL: databaseUrl, SECRET_KEY: secretKey }), 'bench-dashboard', 'business');
}
const server = await startService(
  serviceEnv({
    DATABASE_URL: databaseUrl,
    SECRET_KEY: secretKey,
    DELIVERY_ENABLED: 'false',
    API_RATE_LIMIT_PER_MINUTE: '1000000000',
    IP_RATE_LIMIT_PER_MINUTE: '1000000000',
  }),
);
const base = `http://127.0.0.1:${server.port}`;
const wire = await Promise.all(referenced.map(async (file) => ({ file, ...(await wireBytes(base, file)) })));
const jsWire = wire.filter((w) => w.file.endsWith('.js'));
const jsServed = jsWire.reduce((sum, w) => sum + w.bytes, 0);
const cssServed = wire.filter((w) => w.file.endsWith('.css')).reduce((sum, w) => sum + w.bytes, 0);
const servedEncodings = [...new Set(wire.map((w) => w.encoding))].join(', ');
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

const rendered: number[] = [];
const baseline: number[] = [];
const overviewQuery = print(OverviewDocument);
try {
  for (let i = 0; i < WARMUP + RUNS; i++) {
    // A fresh browser context each time: nothing cached but what HTTP caching allows a returning visitor.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.getByLabel('API key').fill(apiKey);
    const started = performance.now();
    await page.getByLabel('API key').press('Enter');
    await page.getByTestId('counter-today').waitFor({ timeout: 30_000 });
    await page.getByRole('heading', { name: /Latest votes/ }).waitFor({ timeout: 30_000 });
    const took = performance.now() - started;
    await context.close();

    const queryStarted = performance.now();
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ query: overviewQuery }),
    });
    const body = (await res.json()) as { errors?: unknown[] };
    if (body.errors) throw new Error(`overview query failed: ${JSON.stringify(body.errors)}`);
    const queryTook = performance.now() - queryStarted;
    if (i >= WARMUP) {
      rendered.push(took);
      baseline.push(queryTook);
    }
  }
} finally {
  await browser.close();
  await server.stop();
}

const r = sortedCopy(rendered);
const b = sortedCopy(baseline);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const msText = (value: number) => `${value.toFixed(0)} ms`;
const engine = DIALECT === 'sqlite' ? 'SQLite' : 'PostgreSQL';
const history = seeded ? `${thousands(VOTES)} votes (the read benchmark's ${engine} history)` : 'an empty database (no seeded history found)';
const rows = [
  [
    'initial JS, as served',
    kb(jsServed),
    '< 300 KB',
    `${jsFiles.length} file(s), content-encoding ${servedEncodings}; ${kb(jsRaw)} uncompressed, ${kb(jsGzip9)} at gzip -9; ${allJs.length} JS file(s) in the build`,
  ],
  ['initial CSS, as served', kb(cssServed), '', `${kb(cssGzip9)} at gzip -9`],
  ['sign-in → overview rendered, p50', msText(percentile(r, 50)), '< 1,000 ms', `baseline (the overview query alone): ${msText(percentile(b, 50))}`],
  ['sign-in → overview rendered, p90', msText(percentile(r, 90)), '', `baseline: ${msText(percentile(b, 90))}`],
  ['sign-in → overview rendered, max', msText(r[r.length - 1]), '', `baseline: ${msText(b[b.length - 1])}`],
];
console.log(consoleTable(['measure', 'ours', 'budget', 'notes'], rows));
writeSection(
  join(ROOT, 'BENCHMARKS.md'),
  DIALECT === 'sqlite' ? 'dashboard' : 'dashboard-postgresql',
  `## Dashboard on ${engine} (bench/dashboard.ts)

${machineDescription()}; commit ${gitCommit(ROOT)}; Chromium at ${CHROMIUM}; ${RUNS} sign-ins after ${WARMUP} warm-up, each in a
fresh browser context, on ${history}. "Rendered" = the overview's counters and latest votes are on screen, timed
from pressing Enter in the sign-in field (the sign-in query, then the overview's one GraphQL request, then React's
render). The baseline is that overview request alone, sent from Node in the same run.

${markdownTable(['measure', 'ours', 'budget', 'notes'], rows)}`,
);
