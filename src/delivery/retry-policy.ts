// What to do after a delivery attempt: done, retry (and when), or fail for good (the README's Connect a game server).

export type AttemptOutcome = { kind: 'sent' } | { kind: 'retry'; delayMs: number } | { kind: 'failed' };

/** Spreads a scheduled wait; a receiver's own Retry-After or retry_after is never spread. */
export type Jitter = (delayMs: number) => number;
export const exactly: Jitter = (delayMs) => delayMs;
/**
 * ±fraction around the scheduled wait (RETRY_JITTER, 0.2 by default), so the jobs that failed together while a
 * receiver was down do not all come back in the same instant when it returns.
 */
export const jitter = (fraction: number, random: () => number = Math.random): Jitter =>
  fraction <= 0 ? exactly : (delayMs) => Math.round(delayMs * (1 - fraction + 2 * fraction * random()));

/** A receiver's Retry-After (seconds or an HTTP date), bounded so a bad header cannot park a job for ever. */
export function parseRetryAfter(value: string | undefined, nowMs: number, maxMs = 24 * 3_600_000): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.min(Math.round(Number(text) * 1000), maxMs);
  // Only the HTTP-date form (RFC 9110 IMF-fixdate, e.g. "Sun, 06 Nov 1994 08:49:37 GMT"); anything else is ignored.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) return null;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.min(Math.max(0, date - nowMs), maxMs);
}

/**
 * Callbacks: 2xx sent; 410 Gone fails at once; anything else (other status, network error, timeout) retries
 * after schedule[attempt-1] (spread by `spread`) — or the receiver's Retry-After when it gives one — until the
 * attempts run out.
 */
export function callbackOutcome(
  result: { status: number | null; retryAfterMs: number | null },
  attempt: number,
  schedule: readonly number[],
  spread: Jitter = exactly,
): AttemptOutcome {
  if (result.status !== null && result.status >= 200 && result.status < 300) return { kind: 'sent' };
  if (result.status === 410) return { kind: 'failed' };
  if (attempt > schedule.length) return { kind: 'failed' };
  return { kind: 'retry', delayMs: result.retryAfterMs ?? spread(schedule[attempt - 1]) };
}

/** Chat platforms: backoff between the (at most 5) attempts when the platform gives no retry_after. */
export const CHAT_BACKOFF_MS: readonly number[] = [1_000, 5_000, 30_000, 120_000];

/**
 * Chat webhooks: 2xx sent; 429 waits the platform's retry_after; 5xx, network errors and timeouts back off;
 * any other 4xx (bad request, unknown webhook, forbidden) fails at once — sending it again cannot help.
 */
export function chatOutcome(
  result: { status: number | null; retryAfterMs: number | null },
  attempt: number,
  maxAttempts: number,
  spread: Jitter = exactly,
): AttemptOutcome {
  const status = result.status;
  if (status !== null && status >= 200 && status < 300) return { kind: 'sent' };
  if (status !== null && status >= 400 && status < 500 && status !== 429 && status !== 408) return { kind: 'failed' };
  if (attempt >= maxAttempts) return { kind: 'failed' };
  return { kind: 'retry', delayMs: result.retryAfterMs ?? spread(CHAT_BACKOFF_MS[Math.min(attempt - 1, CHAT_BACKOFF_MS.length - 1)]) };
}

/** Discord's 429 body carries `retry_after` in seconds (a float); the header is the fallback. */
export function chatRetryAfterMs(body: string, header: string | undefined, nowMs: number): number | null {
  try {
    const parsed = JSON.parse(body) as { retry_after?: unknown };
    if (typeof parsed.retry_after === 'number' && parsed.retry_after >= 0) return Math.min(Math.ceil(parsed.retry_after * 1000), 24 * 3_600_000);
  } catch {
    // not JSON
  }
  return parseRetryAfter(header, nowMs);
}
