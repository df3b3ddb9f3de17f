// A callback's health (the README's Delivery guarantees): a run of failed attempts longer than
// CALLBACK_DISABLE_AFTER disables it with a reason and one admin alert; while it is disabled its undelivered jobs
// are held (not failed, not sent) and they resume, with a fresh attempt budget, when it is enabled again.
import type { AppDeps } from '../app/deps.js';
import type { Tx } from '../storage/index.js';
import type { Callback, Organization } from '../generated/sqlite/client.js';
import { callbackDisabledAlert, queueAdminAlert } from './alerts.js';
import { attemptBudget } from '../domain/job-plan.js';

type Prisma = AppDeps['db']['prisma'];

/** Its jobs that wait for a send (pending, retrying) are held: no worker claims them. Returns how many. */
export async function holdJobs(prisma: Prisma, callbackId: string): Promise<number> {
  // A pacing slot given before is forgotten: after the hold the job takes a new one (src/storage/pacer.ts).
  const held = await prisma.deliveryJob.updateMany({ where: { callbackId, status: { in: ['pending', 'retrying'] } }, data: { status: 'held', pacedMs: 0 } });
  return held.count;
}

/** Held jobs are due again now, each with a whole retry schedule ahead of it. Returns how many. */
export async function resumeJobs(deps: Pick<AppDeps, 'db' | 'config'>, callbackId: string, now: Date): Promise<number> {
  const { prisma } = deps.db;
  const budget = attemptBudget(deps.config, 'callback');
  const groups = await prisma.deliveryJob.groupBy({ by: ['attempts'], where: { callbackId, status: 'held' } });
  let resumed = 0;
  for (const { attempts } of groups) {
    const changed = await prisma.deliveryJob.updateMany({
      where: { callbackId, status: 'held', attempts },
      data: { status: attempts > 0 ? 'retrying' : 'pending', runAt: now, maxAttempts: attempts + budget, lockedBy: null, lockedUntil: null, pacedMs: 0 },
    });
    resumed += changed.count;
  }
  return resumed;
}

/**
 * After a failed attempt: when every attempt since `failingSince` failed and that run is longer than
 * CALLBACK_DISABLE_AFTER, the callback is disabled (once, whichever instance gets here), its jobs are held, and the
 * admin alert is queued. True when this call disabled it.
 */
export async function disableIfFailingTooLong(deps: AppDeps, callback: Callback, org: Organization, now: Date): Promise<boolean> {
  const { prisma } = deps.db;
  if (!callback.failingSince || !callback.enabled) return false;
  const cutoff = new Date(now.getTime() - deps.config.callbackDisableAfterMs);
  if (callback.failingSince > cutoff) return false;
  const days = Math.floor((now.getTime() - callback.failingSince.getTime()) / 86_400_000);
  const reason = `Every delivery attempt failed since ${callback.failingSince.toISOString()} (${days} day${days === 1 ? '' : 's'}); held votes resume when it is enabled again`;
  const disabled = await prisma.callback.updateMany({
    where: { id: callback.id, enabled: true, failingSince: { lte: cutoff } },
    data: { enabled: false, disabledReason: reason, disabledAt: now },
  });
  if (disabled.count === 0) return false;
  const held = await holdJobs(prisma, callback.id);
  deps.logger.error(
    {
      organization: org.slug,
      callback: callback.name,
      callbackId: callback.id,
      callbackKind: callback.kind,
      failingSince: callback.failingSince.toISOString(),
      held,
    },
    `callback "${callback.name}" of ${org.slug} disabled: every delivery attempt has failed since ${callback.failingSince.toISOString()} (longer than CALLBACK_DISABLE_AFTER); ` +
      `${held} undelivered vote${held === 1 ? ' is' : 's are'} held, and new ones too, until it is enabled again (the dashboard, or PATCH /v1/callbacks/${callback.id} {"enabled": true})`,
  );
  // One alert per disabling (unique key), whichever instance gets here.
  await queueAdminAlert(
    deps,
    org,
    `callback_disabled:${callback.id}:${now.getTime()}`,
    callbackDisabledAlert({ callbackName: callback.name, reason, held, failingSince: callback.failingSince }),
    now,
  );
  return true;
}

/**
 * A deleted provider leaves the routes of the callbacks that named it. One left naming none takes no votes: it is
 * disabled with that reason, and enabling it asks for its providers (an empty list, all of them, included).
 */
export async function dropFromRoutes(tx: Tx, organizationId: string, provider: { id: string; key: string }, now: Date): Promise<void> {
  const callbacks = await tx.callback.findMany({ where: { organizationId, providerIdsJson: { contains: provider.id } } });
  for (const callback of callbacks) {
    const left = (JSON.parse(callback.providerIdsJson!) as string[]).filter((id) => id !== provider.id);
    const orphaned = left.length === 0;
    await tx.callback.update({
      where: { id: callback.id },
      data: {
        providerIdsJson: JSON.stringify(left),
        ...(orphaned && callback.enabled
          ? { enabled: false, disabledAt: now, disabledReason: `Its only provider (${provider.key}) was deleted; choose its providers, then enable it` }
          : {}),
      },
    });
    if (orphaned && callback.enabled)
      await tx.deliveryJob.updateMany({ where: { callbackId: callback.id, status: { in: ['pending', 'retrying'] } }, data: { status: 'held', pacedMs: 0 } });
  }
}
