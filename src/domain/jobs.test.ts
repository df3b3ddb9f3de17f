import { describe, expect, it } from 'vitest';
import { finishedRow, tellsOfHealth, voteStatusFrom, wasLeaving, type ClaimedJob, type JobForStatus } from './jobs.js';

const job = (kind: string, status: string, callbackId: string | null = null, attempts = 1): JobForStatus => ({
  kind,
  status,
  attempts,
  sentAt: status === 'sent' ? new Date(1_000) : null,
  callbackId,
  createdAt: 1,
});

const claimed: ClaimedJob = {
  id: 'j1',
  kind: 'callback',
  organizationId: 'o',
  voteId: 'v',
  callbackId: 'c',
  attempts: 0,
  maxAttempts: 5,
  priority: 0,
  payloadJson: null,
  pacedMs: 0,
};

describe('uncertain deliveries in the vote statuses', () => {
  it('an uncertain callback makes the vote uncertain, above a failed or an unfinished one', () => {
    expect(voteStatusFrom([job('callback', 'uncertain', 'a'), job('callback', 'sent', 'b')]).callbackStatus).toBe('uncertain');
    expect(voteStatusFrom([job('callback', 'uncertain', 'a'), job('callback', 'failed', 'b')]).callbackStatus).toBe('uncertain');
    expect(voteStatusFrom([job('callback', 'uncertain', 'a'), job('callback', 'retrying', 'b')]).callbackStatus).toBe('uncertain');
    expect(voteStatusFrom([job('callback', 'failed', 'a'), job('callback', 'sent', 'b')]).callbackStatus).toBe('failed');
  });

  it('a chat job on its own: chat_status uncertain, callbacks untouched', () => {
    const status = voteStatusFrom([job('chat', 'uncertain'), job('callback', 'sent', 'a')]);
    expect(status).toMatchObject({ chatStatus: 'uncertain', callbackStatus: 'sent', callbackAttempts: 1 });
  });

  it('a redelivered job (a newer one for the same callback) is the one that counts', () => {
    const old = { ...job('callback', 'uncertain', 'a'), createdAt: 1 };
    const again = { ...job('callback', 'sent', 'a'), createdAt: 2 };
    expect(voteStatusFrom([old, again]).callbackStatus).toBe('sent');
  });

  it('an uncertain finish is final: no due time, the attempt counted, the error replaced', () => {
    const row = finishedRow({
      job: claimed,
      workerId: 'w',
      now: new Date(5_000),
      attempt: { attempt: 1, target: 'votifier://h:8192', statusCode: null, success: false, durationMs: 0, error: 'x', responseExcerpt: null, uncertain: true },
      resolution: { status: 'uncertain' },
      errorText: 'x',
    });
    expect(row).toEqual({ status: 'uncertain', runAt: null, pacedMs: 0, keepError: false, attempts: 1 });
  });

  it('an uncertain attempt says nothing of the callback’s health; a mark read at claim is recognised on both databases', () => {
    const base = { attempt: 1, target: '', statusCode: null, success: false, durationMs: 0, error: null, responseExcerpt: null };
    expect(tellsOfHealth(base)).toBe(true);
    expect(tellsOfHealth({ ...base, uncertain: true })).toBe(false);
    expect(tellsOfHealth({ ...base, voteRefused: true })).toBe(false);
    expect(wasLeaving(claimed)).toBe(false);
    expect(wasLeaving({ ...claimed, sendingAt: null })).toBe(false);
    expect(wasLeaving({ ...claimed, sendingAt: 1_764_300_000_000 })).toBe(true); // SQLite: epoch ms
    expect(wasLeaving({ ...claimed, sendingAt: new Date(1_764_300_000_000) })).toBe(true); // PostgreSQL: a Date
  });
});
