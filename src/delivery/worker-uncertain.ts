// The delivery worker's uncertain deliveries (README "Delivery guarantees"): a job claimed with its mark set was
// leaving when its sender stopped, to a target that cannot drop a repeat. It is settled `uncertain` without a send,
// and the ones found are told about together: one warning line and one admin alert per organization.
import type { AppDeps } from '../app/deps.js';
import { UNCERTAIN_DELIVERY, type AttemptRecord } from '../domain/jobs.js';
import type { Organization } from '../generated/sqlite/client.js';
import { fixThisAlert, queueAdminAlert } from './alerts.js';
import { jobKindOf } from './job-kinds/registry.js';
import type { JobContext } from './senders.js';

/**
 * Uncertain deliveries taken over from another instance are told about together when this long has passed since the
 * first: that instance marked them within its longest attempt (callback timeouts reach 30 s) before it stopped, so
 * their leases lapse that close together. Those of this instance's own restart are told about as soon as all are back.
 */
const UNCERTAIN_REPORT_WINDOW_MS = 30_000;
/** The uncertain deliveries an alert names one by one; the rest are counted. */
const UNCERTAIN_ALERT_LISTED = 10;

export interface UncertainDeliveries {
  /** Records the job's attempt as one whose outcome nobody knows, and ends it `uncertain`; counted for the report. */
  settle(ctx: JobContext): Promise<void>;
  /** Tells about the ones settled since the last report (at once: a restart's own are all back, or at shutdown). */
  report(): Promise<void>;
  /** Some are settled and not told about yet. */
  waiting(): boolean;
}

/** `workerId` holds the jobs; `reported` runs after each report (the alerts it queued are jobs to claim). */
export function createUncertainDeliveries(deps: AppDeps, workerId: string, reported: () => void): UncertainDeliveries {
  // Uncertain deliveries found since the last report, per organization (README "Delivery guarantees").
  const uncertainFound = new Map<string, { org: Organization; lines: string[]; count: number }>();
  let uncertainSince: number | null = null;
  let uncertainTimer: NodeJS.Timeout | null = null;

  /**
   * A job claimed with its mark set: its attempt was leaving when its sender stopped, to a target that cannot drop a
   * repeat. It is not sent again: recorded as an attempt whose outcome nobody knows, and the job ends `uncertain`.
   */
  async function settleUncertain(ctx: JobContext): Promise<void> {
    const { job } = ctx;
    const kind = jobKindOf(job.kind);
    const attempt: AttemptRecord = {
      attempt: job.attempts + 1,
      target: kind?.target(ctx, deps) ?? '',
      statusCode: null,
      success: false,
      durationMs: 0,
      error: UNCERTAIN_DELIVERY,
      responseExcerpt: null,
      uncertain: true,
    };
    if (!(await deps.jobs.finish(job, workerId, deps.clock.now(), attempt, { status: 'uncertain' }, UNCERTAIN_DELIVERY))) return;
    deps.metrics.deliveryAttempt(job.kind, 'uncertain');
    deps.metrics.jobFinished(job.kind, 'uncertain');
    const found = uncertainFound.get(ctx.org.id) ?? { org: ctx.org, lines: [], count: 0 };
    found.count++;
    const what = kind?.describe(ctx) ?? job.kind;
    if (found.lines.length < UNCERTAIN_ALERT_LISTED)
      found.lines.push(ctx.vote ? `${ctx.vote.publicId}: ${ctx.vote.voterName} from ${ctx.vote.provider.name}, ${what}` : what);
    uncertainFound.set(ctx.org.id, found);
    if (uncertainSince === null) {
      uncertainSince = deps.clock.now().getTime();
      uncertainTimer = setTimeout(() => void reportUncertain(), UNCERTAIN_REPORT_WINDOW_MS);
      uncertainTimer.unref();
    }
  }

  /** One warning line and one admin alert per organization for the uncertain deliveries found since the last report. */
  async function reportUncertain(): Promise<void> {
    if (uncertainTimer) clearTimeout(uncertainTimer);
    uncertainTimer = null;
    const since = uncertainSince;
    uncertainSince = null;
    const found = [...uncertainFound.values()];
    uncertainFound.clear();
    if (since === null) return;
    const now = deps.clock.now();
    await Promise.all(
      found.map(async ({ org, lines, count }) => {
        const deliveries = `${count.toLocaleString('en-US')} ${count === 1 ? 'delivery' : 'deliveries'}`;
        deps.logger.warn(
          { organization: org.slug, uncertain: count },
          `${deliveries} of ${org.slug} to targets that cannot drop a repeat (Votifier, RCON, chat, DMs) ${count === 1 ? 'was' : 'were'} being sent when the relay stopped: marked uncertain and not sent again (the server may or may not have ${count === 1 ? 'it' : 'them'}); GET /v1/votes?callback_status=uncertain lists the votes, POST /v1/votes/:id/redeliver resends one on purpose`,
        );
        const more = count > lines.length ? `\n… and ${(count - lines.length).toLocaleString('en-US')} more` : '';
        await queueAdminAlert(
          deps,
          org,
          `uncertain:${org.id}:${workerId}:${since}`,
          fixThisAlert({
            title: `${deliveries} left uncertain by a restart`,
            description:
              `The relay stopped while sending ${deliveries} to targets that cannot drop a repeat (Votifier, RCON commands, chat, DMs). ` +
              'They were not sent again, so nobody is rewarded twice, but the server may or may not have them. Check (the server log, or ask the player), ' +
              "then resend each one that did not arrive: the dashboard's Votes page (status: uncertain) has a Resend button, or POST /v1/votes/:id/redeliver.",
            fields: [{ name: 'Uncertain', value: `${lines.join('\n')}${more}` }],
          }),
          now,
        );
      }),
    );
    reported();
  }

  return { settle: settleUncertain, report: reportUncertain, waiting: () => uncertainSince !== null };
}
