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

/** Admin chat jobs (alerts, leaderboard posts) of `organizationId`, ever queued. */
export const chatJobs = (app: TestApp, organizationId: string) =>
  app.deps.db.prisma.deliveryJob.count({ where: { organizationId, kind: { in: ['alert', 'post'] } } });

/** Admin chat jobs (alerts, leaderboard posts) of `organizationId` not finished yet. */
export const openChatJobs = (app: TestApp, organizationId: string) =>
  app.deps.db.prisma.deliveryJob.count({ where: { organizationId, kind: { in: ['alert', 'post'] }, status: { in: ['pending', 'running', 'retrying'] } } });

/**
 * Waits until `read` has `count` messages and the organization's alert jobs are all finished (so no other is on its
 * way): there must be no more than that. The schedulers' ticks must have been awaited (tickBoth) before.
 */
export async function exactly(read: () => unknown[], count: number, app: TestApp, organizationId: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (read().length < count || (await openChatJobs(app, organizationId)) > 0) {
    if (Date.now() > deadline) throw new Error(`expected ${count} messages, got ${read().length}`);
    await new Promise((r) => setTimeout(r, 20));
  }
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
