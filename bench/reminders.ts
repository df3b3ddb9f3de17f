// Reminder benchmark (README "Reminders"): schedules N reminders (default 100,000) through the hook, one per voter,
// and measures how fast the service takes them when due and delivers them to a callback, against a baseline measured
// in the same run: the same worker delivering the same number of plain vote callbacks from its queue.
//   1. The service with delivery off takes N votes of N voters on a provider with a 3.6 s cooldown (reminders on, a
//      callback taking votes and reminders): N vote callbacks wait in the queue, N reminders wait in their table.
//   2. Restarted with delivery on and the reminder scheduler off: the worker drains the N vote callbacks (baseline).
//   3. Restarted with the scheduler on (every reminder is due by then): it takes the N reminders, queues one event
//      each and the worker delivers them. Every voter must get exactly one reminder across the restarts.
// Writes its section of BENCHMARKS.md. Options: BENCH_REMINDERS (100000), BENCH_CONCURRENCY (sender sockets, 64).
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { nowMs, startReceiver, type Receiver } from './lib/callback-receiver.js';
import { benchDialect, openBenchDatabase } from './lib/database.js';
import { consoleTable, gitCommit, machineDescription, markdownTable, writeSection } from './lib/report.js';
import { ROOT, api, createOrg, createTopggProvider, duration, envNumber, machineLoad, serviceEnv, startService, thousands } from './lib/service.js';

const N = envNumber('BENCH_REMINDERS', 100_000, true);
const SENDERS = envNumber('BENCH_CONCURRENCY', 64, true);
const DIALECT = benchDialect();
const AUTH = 'bench-reminder-secret-0123456789';
const COOLDOWN_HOURS = 0.001; // 3.6 s: every reminder is due before the last phase starts
const DRAIN_LIMIT_S = 900;

/** Posts `count` votes of distinct voters, `SENDERS` at a time (closed loop); resolves with the seconds it took. */
async function sendVotes(port: number, path: string, count: number): Promise<{ seconds: number; refused: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: SENDERS });
  let next = 0;
  let refused = 0;
  const started = nowMs();
  const post = (n: number) =>
    new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ bot: '1', user: `voter-${n}`, type: 'upvote', isWeekend: false, query: '' });
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path,
          agent,
          headers: { 'content-type': 'application/json', authorization: AUTH, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      while (next < count) {
        const n = next++;
        let status = await post(n);
        // A 429 (rate limits are raised for the run, but never trust it): the same vote again after a pause.
        while (status === 429) {
          await sleep(50);
          status = await post(n);
        }
        if (status !== 200) refused++;
      }
    }),
  );
  agent.destroy();
  return { seconds: (nowMs() - started) / 1000, refused };
}

/** Waits until `count` distinct ids with `prefix` arrived; returns the first and last arrival (ms) and duplicates. */
async function drained(receiver: Receiver, prefix: string, count: number, since: number) {
  const deadline = nowMs() + DRAIN_LIMIT_S * 1000;
  const mine = () => [...receiver.arrivals].filter(([id]) => id.startsWith(prefix));
  let got = mine();
  while (got.length < count && nowMs() < deadline) {
    await sleep(200);
    got = mine();
  }
  await sleep(1_000); // a late duplicate would show now
  got = mine();
  const times = got.flatMap(([, at]) => at);
  return {
    distinct: got.length,
    duplicates: times.length - got.length,
    seconds: (Math.max(...times) - since) / 1000,
  };
}

async function main(): Promise<number> {
  const started = Date.now();
  const dir = mkdtempSync(join(os.tmpdir(), 'vr-bench-reminders-'));
  const database = await openBenchDatabase(join(dir, 'vr.db'));
  const receiver = await startReceiver();
  const failures: string[] = [];
  const base = {
    DATABASE_URL: database.url,
    SECRET_KEY: 'bench-reminders-secret-key-0123456789abcdef',
    LOG_LEVEL: 'info', // the start-up line carries the port
    ALLOW_PRIVATE_TARGETS: 'true',
    HOOK_RATE_LIMIT_PER_MINUTE: '1000000000',
    API_RATE_LIMIT_PER_MINUTE: '1000000000',
    IP_RATE_LIMIT_PER_MINUTE: '1000000000',
  };
  const load1 = machineLoad();
  let schedule = { seconds: 0, refused: 0 };
  let votes = { distinct: 0, duplicates: 0, seconds: 0 };
  let reminders = { distinct: 0, duplicates: 0, seconds: 0 };
  let stored = 0;
  try {
    // 1. Schedule: delivery off, scheduler off.
    const env1 = serviceEnv({ ...base, DELIVERY_ENABLED: 'false', REMINDERS_INTERVAL_MS: '0' });
    const apiKey = await createOrg(env1, 'bench', 'business');
    let server = await startService(env1);
    try {
      const url = `http://127.0.0.1:${server.port}`;
      const path = await createTopggProvider(url, apiKey, AUTH);
      await api(url, apiKey, 'PATCH', '/v1/providers/topgg', { vote_cooldown: { hours: COOLDOWN_HOURS }, vote_url: 'https://top.gg/bot/{{payload.bot}}/vote' });
      await api(url, apiKey, 'PATCH', '/v1/organization', { settings: { reminders_enabled: true } });
      await api(url, apiKey, 'POST', '/v1/callbacks', {
        name: 'bench receiver',
        url: `http://127.0.0.1:${receiver.port}/callback`,
        events: ['vote', 'reminder'],
        payload_template: { vote_id: 'vote:{{voter_name}}', event: 'vote' },
        event_templates: { reminder: { vote_id: 'reminder:{{voter_name}}', event: 'reminder', vote_url: '{{vote_url}}', next_vote_at: '{{next_vote_at}}' } },
      });
      console.log(`[reminders] scheduling ${thousands(N)} reminders: ${thousands(N)} votes of as many voters (${DIALECT})`);
      schedule = await sendVotes(server.port, path, N);
      if (schedule.refused > 0) failures.push(`${schedule.refused} votes were refused`);
    } finally {
      await server.stop();
    }
    stored = await database.count('SELECT COUNT(*) AS n FROM "Reminder"');
    if (stored !== N) failures.push(`${stored} reminders stored for ${N} voters`);

    // 2. Baseline: the worker drains the N vote callbacks; no reminder is taken yet.
    server = await startService(serviceEnv({ ...base, DELIVERY_ENABLED: 'true', REMINDERS_INTERVAL_MS: '0' }));
    try {
      const since = nowMs();
      console.log(`[reminders] baseline: delivering the ${thousands(N)} queued vote callbacks`);
      votes = await drained(receiver, 'vote:', N, since);
    } finally {
      await server.stop();
    }
    await sleep(Math.max(0, COOLDOWN_HOURS * 3_600_000 - 1_000)); // every reminder due (long since, in practice)

    // 3. Reminders: the scheduler takes them (due), queues their events, the worker delivers them.
    server = await startService(serviceEnv({ ...base, DELIVERY_ENABLED: 'true', REMINDERS_INTERVAL_MS: '1000' }));
    try {
      const since = nowMs();
      console.log(`[reminders] taking and delivering the ${thousands(N)} due reminders`);
      reminders = await drained(receiver, 'reminder:', N, since);
    } finally {
      await server.stop();
    }
    const left = await database.count('SELECT COUNT(*) AS n FROM "Reminder"');
    if (left !== 0) failures.push(`${left} reminders still in their table`);
    if (votes.distinct !== N) failures.push(`${votes.distinct} of ${N} vote callbacks arrived`);
    if (reminders.distinct !== N) failures.push(`${reminders.distinct} of ${N} reminders arrived`);
    if (reminders.duplicates > 0) failures.push(`${reminders.duplicates} reminders arrived twice`);
  } finally {
    await receiver.stop();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }

  const rate = (count: number, seconds: number) => (seconds > 0 ? thousands(count / seconds) : 'n/a');
  const header = ['Phase', 'Count', 'Seconds', 'Per second'];
  const rows = [
    ["Scheduling (votes through the hook, each moving its voter's reminder)", thousands(N), schedule.seconds.toFixed(1), rate(N, schedule.seconds)],
    ['Baseline: queued vote callbacks delivered by the worker', thousands(votes.distinct), votes.seconds.toFixed(1), rate(votes.distinct, votes.seconds)],
    [
      'Reminders taken when due, queued and delivered',
      thousands(reminders.distinct),
      reminders.seconds.toFixed(1),
      rate(reminders.distinct, reminders.seconds),
    ],
  ];
  console.log(`\n${consoleTable(header, rows)}\n`);
  const ratio = votes.seconds > 0 && reminders.seconds > 0 ? (reminders.distinct / reminders.seconds / (votes.distinct / votes.seconds)).toFixed(2) : 'n/a';
  const section = [
    `### Reminders (${DIALECT === 'sqlite' ? 'SQLite' : 'PostgreSQL'})`,
    '',
    '`bench/reminders.ts`: ' +
      `${thousands(N)} voters each vote once through the hook on a provider with a 3.6 s \`vote_cooldown\`, with reminders on and a callback ` +
      'taking votes and reminders, while delivery is off; then the service is restarted twice: with the reminder scheduler off, ' +
      'the worker drains the queued vote callbacks (the baseline: the same worker, queue and receiver); then with the scheduler on, ' +
      'it takes every due reminder (along the due-time index, 500 per transaction, in the transaction that queues its event) ' +
      'and the worker delivers them. Every voter must get exactly one reminder across the restarts. Seconds are from the ' +
      "service's start to the last arrival.",
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${machineDescription()}`,
    `- Machine load: before ${load1}; after ${machineLoad()}`,
    `- Node: ${process.version}`,
    `- Commit: ${gitCommit(ROOT)}`,
    `- Run took ${duration((Date.now() - started) / 1000)}`,
    '',
    markdownTable(header, rows),
    '',
    `Reminders / baseline: ${ratio}×. Stored reminders after scheduling: ${thousands(stored)}; reminders that arrived twice: ${reminders.duplicates}.`,
    ...failures.map((f) => `- **FAILED**: ${f}`),
  ].join('\n');
  writeSection(join(ROOT, 'BENCHMARKS.md'), DIALECT === 'sqlite' ? 'reminders' : 'reminders-postgresql', section);
  console.log(failures.length > 0 ? `FAILED: ${failures.join('; ')}` : 'BENCHMARKS.md updated.');
  return failures.length > 0 ? 1 : 0;
}

process.exitCode = await main();
