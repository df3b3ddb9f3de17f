// Driving the alert scheduler from a test: every instance's tick at once, and the messages a receiver got, exactly.
import { expect } from 'vitest';
import { dialect, startTestApp, testDatabaseUrl, type TestApp } from './app.js';
import { startReceiver, type Receiver } from './receiver.js';

/** Both instances at once on PostgreSQL (one alert must win), or the one instance twice in a row on SQLite. */
export async function tickBoth(app: TestApp, twin: TestApp | null): Promise<void> {
  if (twin) await Promise.all([app.scheduler.tick(), twin.scheduler.tick()]);
  else {
    await app.scheduler.tick();
    await app.scheduler.tick();
  }
}

/** Waits until `read` has `count` messages, then 300 ms more: there must be no more than that. */
export async function exactly(read: () => unknown[], count: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (read().length < count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} messages, got ${read().length}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 300));
  expect(read(), JSON.stringify(read())).toHaveLength(count);
}

/** The alert tests' services: one on the test database (and a second on PostgreSQL, the scale-out set-up), schedulers driven by hand, and the admin webhook's receiver. */
export interface AlertApps {
  app: TestApp;
  twin: TestApp | null;
  admin: Receiver;
  stop(): Promise<void>;
}

export async function startAlertApps(clock: { now(): Date }): Promise<AlertApps> {
  const databaseUrl = testDatabaseUrl();
  const env = { ALERTS_INTERVAL_MS: '0', DELIVERY_POLL_MS: '50' };
  const app = await startTestApp(env, { clock, databaseUrl });
  const twin = dialect === 'postgresql' ? await startTestApp(env, { clock, databaseUrl }) : null;
  const admin = await startReceiver({ status: 204 });
  return {
    app,
    twin,
    admin,
    async stop() {
      await app.stop();
      await twin?.stop();
      await admin.close();
    },
  };
}
