// The reminder scheduler (README "Reminders"): takes the reminders that came due (each counted vote moved its
// voter's reminder on that site to their next vote), and queues one `reminder` event per callback that takes
// reminders, in the transaction that deletes the reminder (storage ReminderStore: a restart neither loses nor
// repeats one; instances share the work). A voter who opted out, or an organization that turned reminders off,
// gets none. Each tick seeks along the due-time index: no scan, whatever the number of voters.
import type { AppDeps } from '../../app/deps.js';
import type { NewJob } from '../../domain/jobs.js';
import { attemptBudget, type PlanningCallback } from '../../domain/job-plan.js';
import { planEventJobs } from '../../domain/reward-events.js';
import type { DueReminder, Tx } from '../../storage/ports.js';
import { renderText, voteLookup } from '../../delivery/template.js';
import { voteTemplateValues } from '../../delivery/vote-values.js';
import { backgroundLoop } from '../../base/background-loop.js';

export interface ReminderScheduler {
  start(): void;
  stop(): Promise<void>;
  /** Takes every reminder due now; returns how many event jobs it queued. */
  tick(): Promise<number>;
}

/**
 * The provider's vote page, its variables rendered with the vote that set the reminder ({{payload.bot}}: the site
 * sends the id); null when it has none, or when a variable cannot be filled (the vote is gone).
 */
function voteUrlOf(
  provider: { key: string; name: string; voteUrl: string | null },
  vote: { publicId: string; voterName: string; receivedAt: Date; rawPayload: string; test: boolean } | null,
  org: { slug: string; name: string },
): string | null {
  if (!provider.voteUrl) return null;
  const values = vote ? voteLookup(voteTemplateValues(vote, provider, org)) : () => undefined;
  let missing = false;
  // A variable the vote cannot fill (no vote, or a server project's payload without the bot id) leaves no URL.
  const url = renderText(
    provider.voteUrl,
    (name) => {
      const value = values(name);
      if (!value) missing = true;
      return value;
    },
    encodeURIComponent,
  );
  return missing ? null : url;
}

export function createReminderScheduler(deps: AppDeps, options: { intervalMs: number; batch: number; onQueued?: () => void }): ReminderScheduler {
  const budgets = { callback: attemptBudget(deps.config, 'callback'), chat: attemptBudget(deps.config, 'chat') };

  async function plan(tx: Tx, due: DueReminder[], now: Date): Promise<NewJob[]> {
    const orgIds = [...new Set(due.map((r) => r.organizationId))];
    const orgs = new Map(
      (
        await tx.organization.findMany({
          where: { id: { in: orgIds } },
          select: { id: true, slug: true, name: true, status: true, remindersEnabled: true, chatNotificationsEnabled: true, chatWebhookUrl: true },
        })
      ).map((o) => [o.id, o]),
    );
    const providers = new Map(
      (
        await tx.provider.findMany({
          where: { id: { in: [...new Set(due.map((r) => r.providerId))] } },
          select: { id: true, key: true, name: true, voteUrl: true, enabled: true },
        })
      ).map((p) => [p.id, p]),
    );
    const callbacks = new Map<string, (PlanningCallback & { organizationId: string })[]>();
    for (const cb of await tx.callback.findMany({
      where: { organizationId: { in: orgIds }, OR: [{ enabled: true }, { disabledReason: { not: null } }] },
      select: { id: true, organizationId: true, kind: true, priority: true, providerIdsJson: true, enabled: true, eventsJson: true },
      orderBy: [{ priority: 'asc' }, { createdAt: 'asc' }],
    })) {
      callbacks.set(cb.organizationId, [...(callbacks.get(cb.organizationId) ?? []), cb]);
    }
    const optedOut = new Set(
      (
        await tx.reminderOptOut.findMany({
          where: { organizationId: { in: orgIds }, voterKey: { in: [...new Set(due.map((r) => r.voterKey))] } },
          select: { organizationId: true, voterKey: true },
        })
      ).map((o) => `${o.organizationId}\u0000${o.voterKey}`),
    );
    const voteIds = due.flatMap((r) => (r.voteId ? [r.voteId] : []));
    const votes = new Map(
      (voteIds.length > 0
        ? await tx.vote.findMany({
            where: { id: { in: voteIds } },
            select: { id: true, publicId: true, voterName: true, receivedAt: true, rawPayload: true, test: true },
          })
        : []
      ).map((v) => [v.id, v]),
    );
    return due.flatMap((reminder): NewJob[] => {
      const org = orgs.get(reminder.organizationId);
      const provider = providers.get(reminder.providerId);
      if (!org || !provider || org.status !== 'active' || !org.remindersEnabled || !provider.enabled) return [];
      if (optedOut.has(`${reminder.organizationId}\u0000${reminder.voterKey}`)) return [];
      const vote = reminder.voteId ? votes.get(reminder.voteId) : undefined;
      const data = {
        event: 'reminder' as const,
        reminder: {
          voterName: reminder.voterName,
          voterId: reminder.voterKey,
          providerKey: provider.key,
          providerName: provider.name,
          voteUrl: voteUrlOf(provider, vote ?? null, org),
          nextVoteAt: reminder.dueAt.toISOString(),
        },
      };
      return planEventJobs(budgets, org, provider.id, callbacks.get(org.id) ?? [], data).map((job) => ({
        ...job,
        organizationId: org.id,
        // Its delivery log is the vote's that set it, while retention keeps that vote.
        voteId: vote ? vote.id : null,
        runAt: now,
      }));
    });
  }

  async function tick(): Promise<number> {
    let queued = 0;
    for (;;) {
      const now = deps.clock.now();
      const taken = await deps.db.reminders.takeDue(now, options.batch, (tx, due) => plan(tx, due, now));
      queued += taken.queued;
      if (taken.queued > 0) options.onQueued?.();
      if (taken.taken < options.batch) break;
    }
    return queued;
  }

  const loop = backgroundLoop({
    everyMs: options.intervalMs,
    atStart: false,
    pass: tick,
    failed: (err) => deps.logger.error({ err }, `could not take due reminders from the database; trying again in ${options.intervalMs} ms (none is lost)`),
  });
  return { start: loop.start, stop: loop.stop, tick: loop.runNow };
}
