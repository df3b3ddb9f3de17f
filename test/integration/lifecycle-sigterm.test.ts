// Graceful shutdown (README "Configuration", SHUTDOWN_TIMEOUT_MS): SIGTERM lets a request in flight finish, then the process exits 0. Apart
// from the CLI's tests because it is timed: it runs with the files that wait for their turn (vitest.config.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECRET_KEY, databaseUnavailable, testDatabaseUrl, uniqueSlug } from '../kit/app.js';
import { runCli, startServerProcess } from '../kit/processes.js';
import { startReceiver, type Receiver } from '../kit/receiver.js';
import { until } from '../kit/wait.js';

describe.skipIf(databaseUnavailable)('the server process on SIGTERM', () => {
  const env = { DATABASE_URL: testDatabaseUrl(), SECRET_KEY: TEST_SECRET_KEY, ALLOW_PRIVATE_TARGETS: 'true' };
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver?.close());

  it('finishes in-flight requests on SIGTERM, then exits 0', async () => {
    const own = await startServerProcess(env);
    const org = await runCli(['org', 'create', '--slug', uniqueSlug('term'), '--name', 'T', '--plan', 'growth', '--json'], env);
    receiver.script({ status: 204, delayMs: 1_500 });
    const inFlight = fetch(`${own.url}/v1/organization/test-chat-webhook`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.json.api_key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ webhook_url: `${receiver.url}/slow`, message_template: 'hi' }),
    });
    // The request is in flight once the (slow) webhook has it.
    await until(
      async () => receiver.requests.some((r) => r.path === '/slow'),
      (arrived) => arrived,
    );
    own.child.kill('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await own.exited).toBe(0);
    expect(own.logs.some((l) => l.includes('shutting down'))).toBe(true);
  }, 30_000);
});
