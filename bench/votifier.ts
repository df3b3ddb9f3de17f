// Votifier benchmark: votes per second received over TCP with protocol v2 (token) and v1 (RSA), by the service's
// Votifier listener with 1, 100 and 1,000 Votifier providers on its one port, beside the protocol alone as one
// game server runs it (bench/baselines/bare-votifier.ts: one token, one key, one INSERT per vote) in the same run.
// Routing is the cost that grows: a v2 vote is matched to the provider whose token verifies its signature (one
// HMAC per provider tried), a v1 block to the provider whose key decrypts it (one RSA-2048 decryption per provider
// tried). The measured provider is the last one tried (the other providers were created before it).
// Each point: BENCH_DURATION_S (5) of closed-loop sessions from BENCH_CONNECTIONS (16) senders, each session a whole
// protocol exchange (greeting, vote, answer or close) written from NuVotifier's client code (test/kit/votifier-sender.ts).
// Writes its section of BENCHMARKS.md (`votifier`, `votifier-postgresql`).
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/config/config.js';
import { createStorage } from '../src/storage/index.js';
import { PLAN_RULES } from '../src/delivery/callback-kinds/registry.js';
import { createSecretBox, resolveSecretKey } from '../src/crypto/secret-box.js';
import { newVotifierToken } from '../src/votifier/protocol.js';
import { freePort, v1Block, v2Frame, votifierSession } from '../test/kit/votifier-sender.js';
import { benchDialect, openBenchDatabase } from './lib/database.js';
import { consoleTable, gitCommit, machineDescription, markdownTable, writeSection } from './lib/report.js';
import { ROOT, api, baselineEnabled, createOrg, envNumber, percentile, serviceEnv, startBaseline, startService } from './lib/service.js';

const DIALECT = benchDialect();
const DURATION_S = envNumber('BENCH_DURATION_S', 5, false);
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 16, true);
const PROVIDER_COUNTS = [1, 100, 1_000];
/** The listener reuses its routing table for up to 5 s; after adding providers, wait past that. */
const ROUTES_TTL_WAIT_MS = 5_500;

setTimeout(() => {
  console.error('\n!!! votifier benchmark exceeded its 10-minute budget; stopping');
  process.exit(1);
}, 10 * 60_000).unref();

interface Point {
  target: string;
  /** The provider on its own port (VOTIFIER_DEDICATED_PORTS). */
  own?: boolean;
  providers: number | null;
  protocol: 'v2' | 'v1';
  accepted: number;
  perSecond: number;
  p50: number;
  p99: number;
  refused: number;
}

/** Closed-loop sessions for DURATION_S from CONNECTIONS senders; a session counts when it was accepted. */
async function measure(
  target: string,
  providers: number | null,
  protocol: 'v2' | 'v1',
  port: number,
  build: (username: string, challenge: string) => Buffer,
): Promise<Point> {
  const latencies: number[] = [];
  let refused = 0;
  const until = Date.now() + DURATION_S * 1000;
  let n = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < until) {
        const username = `${protocol}${(n++).toString(36)}${randomBytes(2).toString('hex')}`.slice(0, 16);
        const t = performance.now();
        const result = await votifierSession(port, (challenge) => build(username, challenge), 30_000);
        const ok = protocol === 'v2' ? result.answer.includes('"ok"') : result.closed && result.greeting.startsWith('VOTIFIER');
        if (ok) latencies.push(performance.now() - t);
        else refused++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    target,
    providers,
    protocol,
    accepted: latencies.length,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    refused,
  };
}

const dir = mkdtempSync(join(os.tmpdir(), 'vote-relay-bench-votifier-'));
const database = await openBenchDatabase(join(dir, 'service.db'));
const secretKey = randomBytes(32).toString('base64');
const port = await freePort();
const ownPort = await freePort();
const env = serviceEnv({
  VOTIFIER_DEDICATED_PORTS: `${ownPort}-${ownPort}`,
  DATABASE_URL: database.url,
  SECRET_KEY: secretKey,
  LOG_LEVEL: 'info',
  DELIVERY_ENABLED: 'false',
  ALERTS_INTERVAL_MS: '0',
  VOTIFIER_PORT: String(port),
  HOOK_RATE_LIMIT_PER_MINUTE: '100000000',
  IP_RATE_LIMIT_PER_MINUTE: '100000000',
  API_RATE_LIMIT_PER_MINUTE: '100000000',
  VOTIFIER_MAX_CONNECTIONS_PER_IP: '1000',
  VOTIFIER_TIMEOUT_MS: '60000',
});
const points: Point[] = [];
const service = await startService(env);
const config = loadConfig({ DATABASE_URL: database.url, SECRET_KEY: secretKey, LOG_LEVEL: 'silent' });
const db = await createStorage(config, { planRules: PLAN_RULES });
try {
  const base = `http://127.0.0.1:${service.port}`;
  const apiKey = await createOrg(env, `vtf-${randomBytes(3).toString('hex')}`, 'business');
  const created = await api<{ data: { votifier: { token: string; public_key: string } } }>(base, apiKey, 'POST', '/v1/providers', {
    key: 'measured',
    name: 'Measured',
    auth_method: 'votifier',
  });
  const { token, public_key: publicKey } = created.data.votifier;
  const measured = await db.prisma.provider.findFirstOrThrow({ where: { key: 'measured', authMethod: 'votifier' } });

  // The other providers: another organization's, older than the measured one so they are tried first. One shared
  // key pair (each still costs its own decryption when tried), a token each.
  const decoyOrgKey = await createOrg(env, `vtf-decoys-${randomBytes(3).toString('hex')}`, 'business');
  const decoyOrgId = (await api<{ data: { id: string } }>(base, decoyOrgKey, 'GET', '/v1/organization')).data.id;
  const box = createSecretBox(resolveSecretKey(config));
  const decoyPrivate = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
  let decoys = 0;
  for (const providers of PROVIDER_COUNTS) {
    const add = providers - 1 - decoys;
    if (add > 0) {
      const older = new Date(measured.createdAt.getTime() - 86_400_000);
      await db.prisma.provider.createMany({
        data: Array.from({ length: add }, (_, i) => ({
          id: randomUUID(),
          organizationId: decoyOrgId,
          key: `decoy-${decoys + i}`,
          name: `Decoy ${decoys + i}`,
          authMethod: 'votifier',
          authField: 'votifier',
          authValueEnc: box.seal(JSON.stringify({ token: newVotifierToken(), privateKey: decoyPrivate })),
          voteePath: 'username',
          payloadSource: 'json',
          createdAt: older,
          updatedAt: older,
        })),
      });
      decoys += add;
      await sleep(ROUTES_TTL_WAIT_MS);
    }
    console.log(`[ours] ${providers} Votifier provider(s): v2 ${DURATION_S} s…`);
    points.push(
      await measure('ours', providers, 'v2', port, (username, challenge) =>
        v2Frame({ serviceName: 'bench', username, address: '203.0.113.1', timestamp: Date.now() }, token, challenge),
      ),
    );
    console.log(`[ours] ${providers} Votifier provider(s): v1 ${DURATION_S} s…`);
    points.push(
      await measure('ours', providers, 'v1', port, (username) =>
        v1Block({ serviceName: 'bench', username, address: '203.0.113.1', timestamp: Date.now() }, publicKey),
      ),
    );
  }
  // The way past routing: the measured provider on a port of its own, the other providers still there.
  await api(base, apiKey, 'PATCH', '/v1/providers/measured', { votifier_port: ownPort });
  await sleep(ROUTES_TTL_WAIT_MS + 1_000);
  const last = PROVIDER_COUNTS.at(-1)!;
  console.log(`[ours] ${last} Votifier providers, the measured one on its own port: v2, v1…`);
  points.push({
    ...(await measure('ours', last, 'v2', ownPort, (username, challenge) =>
      v2Frame({ serviceName: 'bench', username, address: '203.0.113.1', timestamp: Date.now() }, token, challenge),
    )),
    own: true,
  });
  points.push({
    ...(await measure('ours', last, 'v1', ownPort, (username) =>
      v1Block({ serviceName: 'bench', username, address: '203.0.113.1', timestamp: Date.now() }, publicKey),
    )),
    own: true,
  });
} finally {
  await db.close();
  await service.stop();
}

if (baselineEnabled()) {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const baselineToken = newVotifierToken();
  const baseline = await startBaseline('bare-votifier.ts', {
    BENCH_DB: join(dir, 'baseline.db'),
    ...(DIALECT === 'postgresql' ? { BENCH_DB_URL: database.url } : {}),
    VOTIFIER_TOKEN: baselineToken,
    VOTIFIER_PRIVATE_KEY: pair.privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
  });
  try {
    const publicKey = pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    console.log('[baseline] v2, v1…');
    points.push(
      await measure('baseline', null, 'v2', baseline.port, (username, challenge) =>
        v2Frame({ serviceName: 'bench', username, address: '203.0.113.1', timestamp: Date.now() }, baselineToken, challenge),
      ),
    );
    points.push(
      await measure('baseline', null, 'v1', baseline.port, (username) =>
        v1Block({ serviceName: 'bench', username, address: '203.0.113.1', timestamp: Date.now() }, publicKey),
      ),
    );
  } finally {
    await baseline.stop();
  }
}
await database.drop();
rmSync(dir, { recursive: true, force: true });

const header = ['Target', 'Votifier providers', 'Protocol', 'Votes/s', 'p50 ms', 'p99 ms', 'Accepted', 'Refused', 'vs baseline'];
const baselineOf = (protocol: string) => points.find((p) => p.target === 'baseline' && p.protocol === protocol);
const rows = points.map((p) => {
  const b = baselineOf(p.protocol);
  return [
    p.target === 'ours' ? (p.own ? 'ours, the provider on its own port' : 'ours (Votifier listener)') : 'baseline (one receiver, one key)',
    p.providers === null ? '—' : p.providers.toLocaleString('en-US'),
    p.protocol,
    p.perSecond.toFixed(p.perSecond < 10 ? 2 : 0),
    p.p50.toFixed(1),
    p.p99.toFixed(1),
    String(p.accepted),
    String(p.refused),
    p.target === 'ours' && b ? `${(p.perSecond / b.perSecond).toFixed(2)}×` : '—',
  ];
});
console.log(`\nVotifier benchmark — ${DURATION_S} s per point, ${CONNECTIONS} senders, ${DIALECT}\n`);
console.log(consoleTable(header, rows));
const section = [
  `## Votifier: votes received per second over TCP${DIALECT === 'postgresql' ? ' (PostgreSQL)' : ''}`,
  '',
  'Measured by `bench/votifier.ts`: closed-loop sessions (greeting, vote, answer or close) from ' +
    `${CONNECTIONS} senders written from NuVotifier's client code, ${DURATION_S} s per point, against the service's Votifier ` +
    'listener with 1, 100 and 1,000 Votifier providers on its one port (the measured provider is the last one ' +
    'tried), and against `bench/baselines/bare-votifier.ts` (the protocol alone: one token, one key, one committed ' +
    'INSERT per vote). The service answers v2 only after the vote, its jobs and rollups are committed.',
  '',
  `- Date: ${new Date().toISOString()}`,
  `- Machine: ${machineDescription()}`,
  `- Node: ${process.version}`,
  `- Commit: ${gitCommit(ROOT)}`,
  '',
  markdownTable(header, rows),
  '',
  'Routing: a v2 vote costs one HMAC-SHA256 per provider tried, a v1 block one RSA-2048 decryption per provider ' +
    'tried, so v1 with many Votifier providers on one port is slow (README: Votifier lists).',
].join('\n');
writeSection(join(ROOT, 'BENCHMARKS.md'), DIALECT === 'postgresql' ? 'votifier-postgresql' : 'votifier', section);
console.log('\nBENCHMARKS.md updated.');
