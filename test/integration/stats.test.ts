// Statistics, vote listing and export against a known data set. Votes are created only through the hooks with an
// injectable clock placing each one at a chosen instant; every expected figure is computed here, in plain JS over
// the generated list (never through the service code), and compared with what the endpoints answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailable, startTestApp, type ApiResponse, type TestApp, type TestOrg } from '../kit/app.js';

const DAY = 86_400_000;
const NOW = new Date('2026-03-15T12:00:00.000Z'); // a Sunday: this week began Monday 2026-03-09
const iso = (ms: number) => new Date(ms).toISOString();
const t = (text: string) => new Date(text).getTime();

class MutableClock {
  private current = NOW.getTime();
  now(): Date {
    return new Date(this.current);
  }
  set(ms: number): void {
    this.current = ms;
  }
}

/** mulberry32: small, seeded, reproducible. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface GenVote {
  voter: string; // spelling sent
  voterKey: string; // case-insensitive identity
  provider: string;
  at: number;
  publicId: string;
  chatStatus: string;
  callbackStatus: string;
  chatSentAt: string | null;
  callbackSentAt: string | null;
  callbackAttempts: number;
}

const PROVIDERS = [
  { key: 'alpha', name: 'Alpha List' },
  { key: 'beta', name: 'Beta Sites' },
  { key: 'gamma', name: 'Gamma Top' },
];
const providerName = (key: string) => PROVIDERS.find((p) => p.key === key)!.name;

const SPELLINGS: Record<string, string[]> = {
  steve: ['Steve', 'STEVE', 'steve'],
  alice: ['Alice', 'ALICE'],
  bob: ['Bob', 'bob'],
  charlie: ['Charlie'],
  dana: ['Dana', 'DANA'],
  eve: ['Eve'],
  frank: ['Frank'],
  grace: ['Grace', 'grace'],
  heidi: ['Heidi'],
  quinn: ['Quinn'],
  abe: ['Abe'],
  yara: ['Yara'],
};
const RANDOM_VOTERS: [string, number][] = [
  ['steve', 4],
  ['alice', 3],
  ['bob', 2],
  ['charlie', 1],
  ['dana', 1],
  ['eve', 1],
  ['frank', 1],
  ['grace', 1],
  ['heidi', 1],
];

// Windows where "N days back" read as whole UTC days and read as N×24h disagree (leaderboard days=30 and days=10):
// no vote is placed there, so either reading gives the same figures.
const AMBIGUOUS: [number, number][] = [
  [t('2026-02-13T12:00:00.000Z'), t('2026-02-14T00:00:00.000Z')],
  [t('2026-03-05T12:00:00.000Z'), t('2026-03-06T00:00:00.000Z')],
  // and one day of the last 30 without any vote, so zero-filling shows.
  [t('2026-03-04T00:00:00.000Z'), t('2026-03-05T00:00:00.000Z')],
];

// Chat notifications configured (delivery disabled: they stay `pending`) / legacy callback configured.
const CHAT_ON: [number, number] = [t('2025-06-01T00:00:00.000Z'), t('2025-09-01T00:00:00.000Z')];
const CALLBACK_ON: [number, number] = [t('2025-08-01T00:00:00.000Z'), t('2025-11-01T00:00:00.000Z')];
const within = (at: number, [a, b]: [number, number]) => at >= a && at < b;

function generate(): Omit<GenVote, 'publicId'>[] {
  const rnd = prng(20_260_315);
  const pick = <T>(items: [T, number][]): T => {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let x = rnd() * total;
    for (const [item, w] of items) if ((x -= w) < 0) return item;
    return items[items.length - 1][0];
  };
  const out: { voter: string; provider: string; at: number }[] = [];
  const randomIn = (from: number, to: number) => {
    for (;;) {
      const at = from + Math.floor(rnd() * (to - from));
      if (!AMBIGUOUS.some(([a, b]) => at >= a && at < b)) return at;
    }
  };
  const add = (count: number, from: number, to: number) => {
    for (let i = 0; i < count; i++) {
      const at = randomIn(from, to);
      const key = pick(RANDOM_VOTERS);
      const voter = SPELLINGS[key][Math.floor(rnd() * SPELLINGS[key].length)];
      // gamma stops before the last 30 days: the dashboard must still list it, with 0.
      const provider =
        at < t('2026-02-01T00:00:00.000Z')
          ? pick([
              ['alpha', 3],
              ['beta', 2],
              ['gamma', 2],
            ])
          : pick([
              ['alpha', 3],
              ['beta', 2],
            ]);
      out.push({ voter, provider, at });
    }
  };
  add(260, t('2025-01-15T00:00:00.000Z'), NOW.getTime());
  add(90, t('2026-02-14T00:00:00.000Z'), NOW.getTime());
  add(10, t('2026-03-15T00:00:00.000Z'), NOW.getTime());
  // Boundaries: last millisecond of a day and the first of the next, month ends, an ISO week 1 starting in December.
  const fixed: [string, string, string][] = [
    ['Steve', 'alpha', '2025-01-31T23:59:59.999Z'],
    ['STEVE', 'beta', '2025-02-01T00:00:00.000Z'],
    ['alice', 'gamma', '2025-02-28T23:59:59.999Z'],
    ['Alice', 'alpha', '2025-03-01T00:00:00.000Z'],
    ['Bob', 'beta', '2025-12-28T23:59:59.999Z'], // Sunday of ISO week 52 of 2025
    ['bob', 'gamma', '2025-12-29T00:00:00.000Z'], // Monday of ISO week 1 of 2026
    ['Dana', 'alpha', '2025-12-31T23:59:59.999Z'],
    ['DANA', 'alpha', '2026-01-01T00:00:00.000Z'],
    ['Eve', 'gamma', '2026-01-04T23:59:59.999Z'], // last instant of ISO week 1
    ['Frank', 'beta', '2026-01-05T00:00:00.000Z'], // first instant of ISO week 2
    ['Grace', 'gamma', '2026-01-31T23:59:59.999Z'],
    ['grace', 'alpha', '2026-02-01T00:00:00.000Z'],
    ['Heidi', 'beta', '2026-02-13T11:59:59.999Z'], // just before the last 30 days (either reading)
    ['Charlie', 'alpha', '2026-02-14T00:00:00.000Z'], // first instant of the dashboard's 30 days
    ['steve', 'beta', '2026-02-28T23:59:59.999Z'],
    ['Steve', 'alpha', '2026-03-01T00:00:00.000Z'],
    ['Alice', 'beta', '2026-03-08T23:59:59.999Z'], // Sunday, last week
    ['ALICE', 'alpha', '2026-03-09T00:00:00.000Z'], // Monday, this week
    ['Bob', 'alpha', '2026-03-09T20:00:00.000Z'],
    ['bob', 'beta', '2026-03-10T03:00:00.000Z'],
    ['STEVE', 'alpha', '2026-03-14T23:59:59.999Z'],
    ['Steve', 'beta', '2026-03-15T00:00:00.000Z'], // today's first instant
    ['Dana', 'alpha', '2026-03-15T11:59:59.999Z'], // just before now
    // Leaderboard ties: three voters with 3 votes each in the last 30 days (1 each in the last 10).
    // Quinn's last vote is the most recent; Abe and Yara voted at the very same instant (then name ascending).
    ['Quinn', 'alpha', '2026-02-20T10:00:00.000Z'],
    ['Quinn', 'beta', '2026-03-01T10:00:00.000Z'],
    ['Quinn', 'alpha', '2026-03-13T10:00:00.000Z'],
    ['Yara', 'beta', '2026-02-22T09:00:00.000Z'],
    ['Yara', 'alpha', '2026-03-03T09:00:00.000Z'],
    ['Yara', 'alpha', '2026-03-12T08:00:00.000Z'],
    ['Abe', 'alpha', '2026-02-21T09:00:00.000Z'],
    ['Abe', 'beta', '2026-03-02T09:00:00.000Z'],
    ['Abe', 'beta', '2026-03-12T08:00:00.000Z'],
  ];
  for (const [voter, provider, at] of fixed) out.push({ voter, provider, at: t(at) });
  out.sort((a, b) => a.at - b.at);
  return out.map((v) => ({
    ...v,
    voterKey: v.voter.toLowerCase(),
    chatStatus: within(v.at, CHAT_ON) ? 'pending' : 'skipped',
    callbackStatus: within(v.at, CALLBACK_ON) ? 'pending' : 'skipped',
    chatSentAt: null,
    callbackSentAt: null,
    callbackAttempts: 0,
  }));
}

// ---------- Independent expectations (plain JS over the list) ----------

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const startOfDay = (ms: number) => Math.floor(ms / DAY) * DAY;
function startOfIsoWeek(ms: number): number {
  const d = new Date(startOfDay(ms));
  const sinceMonday = (d.getUTCDay() + 6) % 7;
  return d.getTime() - sinceMonday * DAY;
}
function startOfMonth(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}
type Gran = 'day' | 'week' | 'month';
const bucketOf = (ms: number, g: Gran) => (g === 'day' ? startOfDay(ms) : g === 'week' ? startOfIsoWeek(ms) : startOfMonth(ms));
function nextBucket(ms: number, g: Gran): number {
  if (g === 'day') return ms + DAY;
  if (g === 'week') return ms + 7 * DAY;
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Buckets from the one holding `from` to the one holding the last instant before `toExclusive`. */
function expectedTrend(list: GenVote[], from: number, toExclusive: number, g: Gran, provider?: string) {
  const buckets = new Map<string, number>();
  for (let b = bucketOf(from, g); b < toExclusive; b = nextBucket(b, g)) buckets.set(dayOf(b), 0);
  for (const v of list) {
    if (v.at < from || v.at >= toExclusive || (provider && v.provider !== provider)) continue;
    const key = dayOf(bucketOf(v.at, g));
    buckets.set(key, buckets.get(key)! + 1);
  }
  return [...buckets].map(([date, count]) => ({ date, count }));
}

const countIn = (list: GenVote[], from: number, toExclusive: number, provider?: string) =>
  list.filter((v) => v.at >= from && v.at < toExclusive && (!provider || v.provider === provider)).length;

function expectedProviderCounts(list: GenVote[], from: number, toExclusive: number, providers = PROVIDERS) {
  return providers.map((p) => ({ key: p.key, name: p.name, count: countIn(list, from, toExclusive, p.key) })).sort((a, b) => (a.key < b.key ? -1 : 1));
}

interface Ranked {
  key: string;
  votes: number;
  last_vote: string;
}
function expectedLeaderboard(list: GenVote[], fromDayStart: number, limit: number, provider?: string): Ranked[] {
  const by = new Map<string, { votes: number; last: number }>();
  for (const v of list) {
    if (v.at < fromDayStart || v.at >= NOW.getTime() + 1 || (provider && v.provider !== provider)) continue;
    const e = by.get(v.voterKey) ?? { votes: 0, last: 0 };
    e.votes++;
    e.last = Math.max(e.last, v.at);
    by.set(v.voterKey, e);
  }
  return [...by]
    .sort(([ka, a], [kb, b]) => b.votes - a.votes || b.last - a.last || (ka < kb ? -1 : ka > kb ? 1 : 0))
    .slice(0, limit)
    .map(([key, e]) => ({ key, votes: e.votes, last_vote: iso(e.last) }));
}

const newestFirst = (list: GenVote[]) => [...list].sort((a, b) => b.at - a.at);

/** Whole UTC day window of `days` days ending today (what the dashboard calls the last 30 days). */
const todayStart = startOfDay(NOW.getTime());
const windowStart = (days: number) => todayStart - (days - 1) * DAY;

function last30Days(list: GenVote[], filter: (v: GenVote) => boolean = () => true) {
  return Array.from({ length: 30 }, (_, i) => {
    const day = windowStart(30) + i * DAY;
    return { date: dayOf(day), count: list.filter((v) => filter(v) && v.at >= day && v.at < day + DAY).length };
  });
}

function summaryOf(list: GenVote[]) {
  return {
    today: list.filter((v) => v.at >= todayStart).length,
    this_week: list.filter((v) => v.at >= t('2026-03-09T00:00:00.000Z')).length,
    this_month: list.filter((v) => v.at >= t('2026-03-01T00:00:00.000Z')).length,
    all_time: list.length,
  };
}

const byKey = <T extends { key: string }>(rows: T[]) => [...rows].sort((a, b) => (a.key < b.key ? -1 : 1));
const fieldsOf = (res: ApiResponse) => ((res.body?.error?.details ?? []) as { field: string }[]).map((d) => d.field);

describe.skipIf(databaseUnavailable)('statistics, vote list and export over a known data set', () => {
  const clock = new MutableClock();
  let app: TestApp;
  let org: TestOrg;
  let votes: GenVote[] = [];

  /**
   * The standing a vote made (README "Rewards"), counted here from its definition over the votes posted up to it
   * (the organization's days are UTC; every vote here counts): totals, the month of the voter's latest day, the
   * run of consecutive days ending on it, the longest run, and the total on the vote's site.
   */
  function expectedStanding(v: GenVote) {
    const upTo = votes.slice(0, votes.indexOf(v) + 1).filter((w) => w.voterKey === v.voterKey);
    const days = [...new Set(upTo.map((w) => iso(w.at).slice(0, 10)))].sort();
    const last = days[days.length - 1];
    const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;
    let best = 0;
    let run = 0;
    days.forEach((day, i) => {
      run = i > 0 && dayNumber(day) - dayNumber(days[i - 1]) === 1 ? run + 1 : 1;
      best = Math.max(best, run);
    });
    return {
      voter_total: upTo.length,
      voter_month_total: upTo.filter((w) => iso(w.at).slice(0, 7) === last.slice(0, 7)).length,
      voter_streak_days: run,
      voter_best_streak_days: best,
      provider_voter_total: upTo.filter((w) => w.provider === v.provider).length,
    };
  }

  const hookPaths: Record<string, string> = {};
  let seq = 0;

  async function createProvider(o: TestOrg, key: string, name: string): Promise<string> {
    const res = await app.request('POST', '/v1/providers', {
      key: o.key,
      body: { key, name, auth_method: 'url_path', auth_field: 'secret', votee_path: 'player.name' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const url = new URL(res.body.data.webhook_url);
    return url.pathname;
  }

  /** Casts one vote at `at` through the hook; every body is unique (no duplicate suppression). */
  async function castAt(path: string, voter: string, at: number): Promise<string> {
    clock.set(at);
    const res = await app.request('POST', path, { body: { player: { name: voter }, seq: ++seq, nonce: `${at}-${seq}` } });
    clock.set(NOW.getTime());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.duplicate).toBe(false);
    return res.body.data.vote_id as string;
  }

  const get = (path: string, key = org.key) => app.request('GET', path, { key });

  async function patchSettings(o: TestOrg, settings: Record<string, unknown>) {
    const res = await app.request('PATCH', '/v1/organization', { key: o.key, body: { settings } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  /** Every page of GET /v1/votes with the given query (limit 100), concatenated. */
  async function allVotes(query: string, key = org.key) {
    const out: any[] = [];
    let pages = 1;
    for (let page = 1; page <= pages; page++) {
      const res = await get(`/v1/votes?${query}${query ? '&' : ''}limit=100&page=${page}`, key);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      pages = res.body.meta.pages;
      out.push(...res.body.data.votes);
    }
    return out;
  }

  function expectSameVotes(actual: any[], expected: GenVote[]) {
    const want = newestFirst(expected);
    expect(actual.map((v) => v.received_at)).toEqual(want.map((v) => iso(v.at)));
    expect(new Set(actual.map((v) => v.public_id))).toEqual(new Set(want.map((v) => v.publicId)));
    const byId = new Map(votes.map((v) => [v.publicId, v]));
    for (const row of actual) {
      const v = byId.get(row.public_id)!;
      expect(row).toEqual({
        id: expect.any(String),
        public_id: v.publicId,
        voter_name: v.voter,
        provider_key: v.provider,
        provider_name: providerName(v.provider),
        received_at: iso(v.at),
        chat_status: v.chatStatus,
        callback_status: v.callbackStatus,
        test: false,
      });
    }
  }

  beforeAll(async () => {
    app = await startTestApp(
      { DELIVERY_ENABLED: 'false', HOOK_RATE_LIMIT_PER_MINUTE: '100000', API_RATE_LIMIT_PER_MINUTE: '100000', IP_RATE_LIMIT_PER_MINUTE: '100000' },
      { clock, countQueries: true },
    );
    org = await app.createOrg({ plan: 'pro' });
    for (const p of PROVIDERS) hookPaths[p.key] = await createProvider(org, p.key, p.name);

    const generated = generate();
    let chatOn = false;
    let callbackOn = false;
    for (const g of generated) {
      // Delivery is disabled, so a configured chat webhook / callback leaves the vote `pending`, otherwise `skipped`.
      const wantChat = within(g.at, CHAT_ON);
      const wantCallback = within(g.at, CALLBACK_ON);
      if (wantChat !== chatOn || wantCallback !== callbackOn) {
        await patchSettings(org, {
          chat_webhook_url: wantChat ? 'http://127.0.0.1:9/chat' : null,
          server_callback_url: wantCallback ? 'http://127.0.0.1:9/game' : null,
        });
        chatOn = wantChat;
        callbackOn = wantCallback;
      }
      const publicId = await castAt(hookPaths[g.provider], g.voter, g.at);
      votes.push({ ...g, publicId });
    }
    if (chatOn || callbackOn) await patchSettings(org, { chat_webhook_url: null, server_callback_url: null });

    // Delivery outcomes (the worker is off in this file): a few votes are marked sent / failed directly, so the
    // status filters and the single-vote fields have something other than pending and skipped to find.
    const prisma = app.deps.db.prisma;
    const chatPending = votes.filter((v) => v.chatStatus === 'pending');
    const cbPending = votes.filter((v) => v.callbackStatus === 'pending');
    for (const v of chatPending.slice(0, 5)) {
      v.chatStatus = 'sent';
      v.chatSentAt = iso(v.at + 1_500);
      await prisma.vote.update({ where: { publicId: v.publicId }, data: { chatStatus: 'sent', chatSentAt: new Date(v.at + 1_500) } });
    }
    for (const v of cbPending.slice(0, 4)) {
      v.callbackStatus = 'failed';
      v.callbackAttempts = 11;
      await prisma.vote.update({ where: { publicId: v.publicId }, data: { callbackStatus: 'failed', callbackAttempts: 11 } });
    }
    for (const v of cbPending.slice(-3)) {
      v.callbackStatus = 'sent';
      v.callbackAttempts = 2;
      v.callbackSentAt = iso(v.at + 5_250);
      await prisma.vote.update({
        where: { publicId: v.publicId },
        data: { callbackStatus: 'sent', callbackAttempts: 2, callbackSentAt: new Date(v.at + 5_250) },
      });
    }
    clock.set(NOW.getTime());
  }, 120_000);
  afterAll(() => app?.stop());

  it('the generated data set covers what the checks need', () => {
    const s = summaryOf(votes);
    expect(votes.length).toBeGreaterThan(300);
    expect(s.today).toBeGreaterThan(0);
    expect(s.this_week).toBeGreaterThan(s.today);
    expect(s.this_month).toBeGreaterThan(s.this_week);
    expect(new Set(votes.map((v) => v.voterKey)).size).toBe(12);
    expect(new Set(votes.filter((v) => v.voterKey === 'steve').map((v) => v.voter)).size).toBe(3);
    expect(votes.filter((v) => v.provider === 'gamma' && v.at >= windowStart(30))).toHaveLength(0);
    expect(new Set(votes.map((v) => v.at)).size).toBe(votes.length - 1); // one deliberate same-instant pair
    for (const status of ['pending', 'skipped', 'sent']) expect(votes.some((v) => v.chatStatus === status)).toBe(true);
    for (const status of ['pending', 'skipped', 'sent', 'failed']) expect(votes.some((v) => v.callbackStatus === status)).toBe(true);
  });

  describe('GET /v1/stats/dashboard', () => {
    it('summary, by_provider (last 30 days, every provider) and a 30-day zero-filled daily trend ending today', async () => {
      const res = await get('/v1/stats/dashboard');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.meta.request_id).toBeTruthy();
      const d = res.body.data;
      expect(d.summary).toEqual(summaryOf(votes));
      expect(byKey(d.by_provider)).toEqual(expectedProviderCounts(votes, windowStart(30), NOW.getTime() + 1));
      expect(d.by_provider.find((p: any) => p.key === 'gamma').count).toBe(0);
      expect(d.daily_trend).toHaveLength(30);
      expect(d.daily_trend[0].date).toBe('2026-02-14');
      expect(d.daily_trend[29].date).toBe('2026-03-15');
      expect(d.daily_trend).toEqual(last30Days(votes));
      expect(d.daily_trend.find((p: any) => p.date === '2026-03-04')).toEqual({ date: '2026-03-04', count: 0 });
      expect(d.daily_trend.reduce((s: number, p: any) => s + p.count, 0)).toBe(byKey(d.by_provider).reduce((s: number, p: any) => s + p.count, 0));
    });
  });

  describe('GET /v1/stats/trend', () => {
    const trend = (query: string) => get(`/v1/stats/trend?${query}`);

    it('defaults: the last 30 days (30×24 h back from now) by day, echoing from, to and granularity', async () => {
      const res = await trend('');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const from = NOW.getTime() - 30 * DAY;
      expect(res.body.data).toEqual({
        trend: expectedTrend(votes, from, NOW.getTime() + 1, 'day'),
        from: iso(from),
        to: NOW.toISOString(),
        granularity: 'day',
      });
      expect(res.body.meta.request_id).toBeTruthy();
    });

    it('day granularity with date-only bounds: a date-only `to` includes that whole UTC day', async () => {
      for (const [from, to] of [
        ['2025-12-28', '2026-01-05'],
        ['2026-02-14', '2026-03-15'],
        ['2025-01-31', '2025-03-01'],
        ['2026-03-15', '2026-03-15'],
      ]) {
        const res = await trend(`from=${from}&to=${to}&granularity=day`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const toExclusive = t(`${to}T00:00:00.000Z`) + DAY;
        expect(res.body.data.trend, `${from}..${to}`).toEqual(expectedTrend(votes, t(`${from}T00:00:00.000Z`), toExclusive, 'day'));
        expect(res.body.data.from).toBe(`${from}T00:00:00.000Z`);
        expect(res.body.data.to).toBe(iso(toExclusive - 1));
        expect(res.body.data.granularity).toBe('day');
      }
      // The boundary pairs land in their own days.
      const edge = await trend('from=2025-12-31&to=2026-01-01');
      expect(edge.body.data.trend).toEqual(expectedTrend(votes, t('2025-12-31T00:00:00.000Z'), t('2026-01-02T00:00:00.000Z'), 'day'));
    });

    it('week granularity: ISO weeks keyed by their Monday, including week 1 of 2026 starting 2025-12-29', async () => {
      const res = await trend('from=2025-12-01&to=2026-01-31&granularity=week');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const expected = expectedTrend(votes, t('2025-12-01T00:00:00.000Z'), t('2026-02-01T00:00:00.000Z'), 'week');
      expect(res.body.data.trend).toEqual(expected);
      expect(res.body.data.granularity).toBe('week');
      const week1 = res.body.data.trend.find((p: any) => p.date === '2025-12-29');
      const inWeek1 = votes.filter((v) => v.at >= t('2025-12-29T00:00:00.000Z') && v.at < t('2026-01-05T00:00:00.000Z')).length;
      expect(week1).toEqual({ date: '2025-12-29', count: inWeek1 });
      for (const p of res.body.data.trend) expect(new Date(`${p.date}T00:00:00Z`).getUTCDay()).toBe(1);
      // A range starting mid-week: the first bucket is still keyed by that week's Monday.
      const mid = await trend('from=2026-02-26&to=2026-03-15&granularity=week');
      expect(mid.body.data.trend).toEqual(expectedTrend(votes, t('2026-02-26T00:00:00.000Z'), t('2026-03-16T00:00:00.000Z'), 'week'));
      expect(mid.body.data.trend[0].date).toBe('2026-02-23');
    });

    it('month granularity: buckets keyed by the 1st, every month present (zero-filled)', async () => {
      const res = await trend('from=2024-11-01&to=2026-03-15&granularity=month');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const expected = expectedTrend(votes, t('2024-11-01T00:00:00.000Z'), t('2026-03-16T00:00:00.000Z'), 'month');
      expect(res.body.data.trend).toEqual(expected);
      expect(expected).toHaveLength(17);
      expect(expected.slice(0, 2)).toEqual([
        { date: '2024-11-01', count: 0 },
        { date: '2024-12-01', count: 0 },
      ]);
      expect(res.body.data.trend.reduce((s: number, p: any) => s + p.count, 0)).toBe(votes.length);
    });

    it('ISO bounds cutting through days count exactly the votes inside', async () => {
      for (const [from, to, g] of [
        ['2026-01-31T12:00:00.000Z', '2026-03-01T00:00:00.000Z', 'day'],
        ['2026-02-14T00:00:00.001Z', '2026-03-14T23:59:59.998Z', 'day'],
        ['2026-03-09T06:30:00.000Z', '2026-03-15T09:15:00.000Z', 'day'],
        ['2025-06-15T08:00:00.000Z', '2026-02-10T17:45:00.000Z', 'week'],
        ['2025-01-31T23:59:59.999Z', '2025-03-01T00:00:00.000Z', 'month'],
        ['2025-03-10T10:00:00.000+02:00', '2025-11-20T18:00:00.000Z', 'month'],
      ] as const) {
        const res = await trend(`from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&granularity=${g}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const expected = expectedTrend(votes, t(from), t(to) + 1, g);
        expect(res.body.data.trend, `${from}..${to} by ${g}`).toEqual(expected);
        expect(res.body.data.from).toBe(iso(t(from)));
        expect(res.body.data.to).toBe(iso(t(to)));
      }
    });

    it('ISO bounds spanning one midnight with no whole day between them split the count between both days', async () => {
      // 18:00 on the 9th to 06:00 on the 10th: Bob's 20:00 vote belongs to the 9th, bob's 03:00 vote to the 10th.
      const from = '2026-03-09T18:00:00.000Z';
      const to = '2026-03-10T06:00:00.000Z';
      const res = await trend(`from=${from}&to=${to}&granularity=day`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const expected = expectedTrend(votes, t(from), t(to) + 1, 'day');
      expect(expected.every((p) => p.count > 0)).toBe(true);
      expect.soft(res.body.data.trend).toEqual(expected);
      // The last millisecond of one day and the first of the next: one vote in each day, and in each ISO week.
      const instants = await trend('from=2025-12-31T23:59:59.999Z&to=2026-01-01T00:00:00.000Z&granularity=day');
      expect.soft(instants.body.data.trend).toEqual([
        { date: '2025-12-31', count: 1 },
        { date: '2026-01-01', count: 1 },
      ]);
      const weeks = await trend('from=2026-01-04T23:59:59.999Z&to=2026-01-05T00:00:00.000Z&granularity=week');
      expect.soft(weeks.body.data.trend).toEqual([
        { date: '2025-12-29', count: 1 },
        { date: '2026-01-05', count: 1 },
      ]);
    });

    it('the provider filter counts only that provider, zero-filled', async () => {
      for (const [provider, g] of [
        ['alpha', 'day'],
        ['beta', 'week'],
        ['gamma', 'month'],
        ['gamma', 'day'],
      ] as const) {
        const res = await trend(`from=2025-11-03&to=2026-03-15&granularity=${g}&provider=${provider}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.data.trend, `${provider} by ${g}`).toEqual(
          expectedTrend(votes, t('2025-11-03T00:00:00.000Z'), t('2026-03-16T00:00:00.000Z'), g, provider),
        );
      }
      const gammaRecent = await trend('provider=gamma');
      expect(gammaRecent.body.data.trend.every((p: any) => p.count === 0)).toBe(true);
    });
  });

  describe('GET /v1/stats/by-provider', () => {
    function check(res: ApiResponse, from: number, toExclusive: number) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const counts = expectedProviderCounts(votes, from, toExclusive);
      const total = counts.reduce((s, p) => s + p.count, 0);
      expect(res.body.data.total).toBe(total);
      const providers = byKey<any>(res.body.data.providers);
      expect(providers.map(({ key, name, count }: any) => ({ key, name, count }))).toEqual(counts);
      for (const p of providers) {
        const expected = total === 0 ? 0 : Math.round((p.count / total) * 100 * 100) / 100;
        expect(Math.abs(p.percentage - expected), `${p.key}: ${p.percentage} vs ${expected}`).toBeLessThan(0.0051);
        expect(Math.round(p.percentage * 100) / 100).toBe(p.percentage); // two decimals at most
      }
      if (total > 0) expect(Math.abs(providers.reduce((s: number, p: any) => s + p.percentage, 0) - 100)).toBeLessThanOrEqual(0.05);
      expect(res.body.meta.request_id).toBeTruthy();
    }

    it('default range (last 30 days to now): counts, total and percentages, providers without votes included', async () => {
      check(await get('/v1/stats/by-provider'), NOW.getTime() - 30 * DAY, NOW.getTime() + 1);
    });

    it('date-only and ISO ranges', async () => {
      check(await get('/v1/stats/by-provider?from=2025-01-01&to=2026-03-15'), t('2025-01-01T00:00:00.000Z'), t('2026-03-16T00:00:00.000Z'));
      check(await get('/v1/stats/by-provider?from=2025-12-29&to=2026-01-04'), t('2025-12-29T00:00:00.000Z'), t('2026-01-05T00:00:00.000Z'));
      check(
        await get('/v1/stats/by-provider?from=2025-07-07T13:13:13.000Z&to=2025-10-02T02:00:00.000Z'),
        t('2025-07-07T13:13:13.000Z'),
        t('2025-10-02T02:00:00.000Z') + 1,
      );
      // A range with no votes at all.
      check(await get('/v1/stats/by-provider?from=2020-01-01&to=2020-12-31'), t('2020-01-01T00:00:00.000Z'), t('2021-01-01T00:00:00.000Z'));
    });
  });

  describe('GET /v1/stats/leaderboard', () => {
    const entries = (res: ApiResponse): Ranked[] =>
      res.body.data.voters.map((v: any) => {
        expect(SPELLINGS[v.name.toLowerCase()], `unknown voter name ${v.name}`).toContain(v.name);
        expect(Object.keys(v).sort()).toEqual(['last_vote', 'name', 'votes']);
        return { key: v.name.toLowerCase(), votes: v.votes, last_vote: v.last_vote };
      });

    it('default: last 30 days, top 10, votes descending', async () => {
      const res = await get('/v1/stats/leaderboard');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(entries(res)).toEqual(expectedLeaderboard(votes, windowStart(30), 10));
      expect(res.body.data.voters).toHaveLength(10);
    });

    it('ties: the more recent last vote first, then name ascending', async () => {
      const res = await get('/v1/stats/leaderboard?limit=100');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const list = entries(res);
      expect(list).toEqual(expectedLeaderboard(votes, windowStart(30), 100));
      const ties = list.filter((e) => ['quinn', 'abe', 'yara'].includes(e.key));
      expect(ties.map((e) => e.key)).toEqual(['quinn', 'abe', 'yara']);
      expect(ties.map((e) => e.votes)).toEqual([3, 3, 3]);
      expect(ties.map((e) => e.last_vote)).toEqual(['2026-03-13T10:00:00.000Z', '2026-03-12T08:00:00.000Z', '2026-03-12T08:00:00.000Z']);
      // The three sit next to each other unless another voter also has exactly 3 votes.
      const i = list.findIndex((e) => e.key === 'quinn');
      if (list.filter((e) => e.votes === 3).length === 3) expect(list.slice(i, i + 3).map((e) => e.key)).toEqual(['quinn', 'abe', 'yara']);
    });

    it('days, limit and provider', async () => {
      for (const [query, days, limit, provider] of [
        ['days=10&limit=100', 10, 100, undefined],
        ['days=1', 1, 10, undefined],
        ['days=400&limit=5', 400, 5, undefined],
        ['days=3650&limit=100', 3650, 100, undefined],
        ['limit=3', 30, 3, undefined],
        ['provider=alpha&limit=100', 30, 100, 'alpha'],
        ['provider=beta&days=10&limit=4', 10, 4, 'beta'],
        ['provider=gamma', 30, 10, 'gamma'],
      ] as const) {
        const res = await get(`/v1/stats/leaderboard?${query}`);
        expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
        expect(entries(res), query).toEqual(expectedLeaderboard(votes, windowStart(days), limit, provider));
      }
      const ten = entries(await get('/v1/stats/leaderboard?days=10&limit=100'));
      expect(ten.filter((e) => ['quinn', 'abe', 'yara'].includes(e.key)).map((e) => [e.key, e.votes])).toEqual([
        ['quinn', 1],
        ['abe', 1],
        ['yara', 1],
      ]);
      expect((await get('/v1/stats/leaderboard?provider=gamma')).body.data.voters).toEqual([]);
    });
  });

  describe('GET /v1/stats/leaderboard: votes recorded out of order', () => {
    it('last_vote is the latest vote, not the last one written (concurrent writers, clock skew between instances)', async () => {
      const o = await app.createOrg({ plan: 'pro' });
      const path = await createProvider(o, 'solo', 'Solo');
      await castAt(path, 'Zed', t('2026-03-14T10:00:00.000Z'));
      await castAt(path, 'Amy', t('2026-03-13T08:00:00.000Z'));
      await castAt(path, 'Amy', t('2026-03-14T09:30:00.000Z'));
      await castAt(path, 'Zed', t('2026-03-14T09:00:00.000Z')); // written last, but earlier than Zed's 10:00 vote
      const res = await get('/v1/stats/leaderboard', o.key);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.voters).toEqual([
        { name: 'Zed', votes: 2, last_vote: '2026-03-14T10:00:00.000Z' },
        { name: 'Amy', votes: 2, last_vote: '2026-03-14T09:30:00.000Z' },
      ]);
      const zed = await get('/v1/stats/voter/zed', o.key);
      expect(zed.body.data.summary.last_vote).toBe('2026-03-14T10:00:00.000Z');
    });
  });

  describe('GET /v1/stats/leaderboard: stays exact after it was ranked (kept lists, stats/leaderboard.ts)', () => {
    // Expected figures come from this list of what was cast, never from the service.
    const cast: { key: string; name: string; at: number; provider: string }[] = [];
    const expected = (days: number, limit: number, now: number, provider?: string) => {
      const from = Math.floor(now / DAY) * DAY - (days - 1) * DAY;
      const by = new Map<string, { name: string; votes: number; last: number }>();
      for (const v of cast.filter((c) => c.at >= from && (!provider || c.provider === provider))) {
        const e = by.get(v.key) ?? { name: v.name, votes: 0, last: 0 };
        e.votes++;
        if (v.at >= e.last) [e.last, e.name] = [v.at, v.name];
        by.set(v.key, e);
      }
      return [...by.values()]
        .sort((a, b) => b.votes - a.votes || b.last - a.last || a.name.localeCompare(b.name))
        .slice(0, limit)
        .map((e) => ({ name: e.name, votes: e.votes, last_vote: iso(e.last) }));
    };

    it('a voter from outside the kept top 100 climbs, new voters enter, a deleted provider and a new day re-rank', async () => {
      const o = await app.createOrg({ plan: 'pro' });
      const paths = { one: await createProvider(o, 'one', 'One'), two: await createProvider(o, 'two', 'Two') };
      const vote = async (name: string, at: number, provider: 'one' | 'two' = 'one') => {
        await castAt(paths[provider], name, at);
        cast.push({ key: name.toLowerCase(), name, at, provider });
      };
      const board = async (query: string, now: number) => {
        clock.set(now);
        const res = await get(`/v1/stats/leaderboard?${query}`, o.key);
        clock.set(NOW.getTime());
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body.data.voters;
      };
      let now = t('2026-03-15T12:00:00.000Z');
      // 110 voters with one vote each: the kept list (100) leaves out the 10 with the oldest votes.
      for (let i = 0; i < 110; i++) await vote(`V${String(i).padStart(3, '0')}`, now - 3 * DAY + i * 60_000, i % 3 === 0 ? 'two' : 'one');
      expect(await board('limit=100', now)).toEqual(expected(30, 100, now));
      expect(await board('limit=5&provider=two', now)).toEqual(expected(30, 5, now, 'two'));
      // V000 (oldest, not kept) gets two more votes: it must lead now, though it was outside the kept list.
      now += 60_000;
      await vote('v000', now - 30_000);
      await vote('V000', now - 20_000, 'two');
      const afterClimb = await board('limit=100', now);
      expect(afterClimb[0]).toEqual({ name: 'V000', votes: 3, last_vote: iso(now - 20_000) });
      expect(afterClimb).toEqual(expected(30, 100, now));
      expect(await board('limit=5&provider=two', now)).toEqual(expected(30, 5, now, 'two'));
      // A new voter and a kept one gain votes; limits other than the kept size read the same list.
      now += 60_000;
      await vote('Newcomer', now - 10_000);
      await vote('Newcomer', now - 5_000, 'two');
      await vote('V050', now - 1_000);
      expect(await board('limit=100', now)).toEqual(expected(30, 100, now));
      expect(await board('limit=3', now)).toEqual(expected(30, 3, now));
      // Deleting a provider lowers counts: the list is ranked again.
      const deleted = await app.request('DELETE', '/v1/providers/two', { key: o.key });
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      cast.splice(0, cast.length, ...cast.filter((c) => c.provider !== 'two'));
      expect(await board('limit=100', now)).toEqual(expected(30, 100, now));
      // The next UTC day: a 1-day window holds only that day's votes.
      now = t('2026-03-16T00:00:05.000Z');
      await vote('Early', now - 1_000);
      expect(await board('days=1&limit=100', now)).toEqual(expected(1, 100, now));
      expect(await board('days=2&limit=100', now)).toEqual(expected(2, 100, now));
    });
  });

  describe('GET /v1/stats/voter/:voter_name', () => {
    const steve = () => votes.filter((v) => v.voterKey === 'steve');

    it('summary, by_provider, daily trend and the newest votes, matched case-insensitively', async () => {
      const mine = steve();
      expect(mine.length).toBeGreaterThan(25);
      const res = await get('/v1/stats/voter/sTeVe?limit=5');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const d = res.body.data;
      expect(d.voter_name.toLowerCase()).toBe('steve');
      const s = summaryOf(mine);
      expect(d.summary).toEqual({
        total: mine.length,
        today: s.today,
        this_week: s.this_week,
        this_month: s.this_month,
        first_vote: iso(Math.min(...mine.map((v) => v.at))),
        last_vote: iso(Math.max(...mine.map((v) => v.at))),
      });
      expect(d.summary.today).toBeGreaterThan(0);
      const providers = byKey(d.by_provider.filter((p: any) => p.count > 0));
      expect(providers).toEqual(expectedProviderCounts(mine, 0, Infinity).filter((p) => p.count > 0));
      for (const p of d.by_provider) expect(PROVIDERS.map((x) => x.key)).toContain(p.key);
      expect(d.daily_trend).toEqual(last30Days(mine));
      expect(d.pagination).toEqual({ page: 1, limit: 5, total: mine.length, pages: Math.ceil(mine.length / 5) });
      expectSameVotes(d.votes, newestFirst(mine).slice(0, 5));
      // The standing now (README "Rewards"): steve voted today, so the streak is current and the month is this one.
      const now = expectedStanding(mine[mine.length - 1]);
      expect(d.standing).toEqual({
        total: now.voter_total,
        month_total: now.voter_month_total,
        streak_days: now.voter_streak_days,
        best_streak_days: now.voter_best_streak_days,
        last_vote_at: iso(Math.max(...mine.map((v) => v.at))),
        time_zone: 'UTC',
        sites: expect.any(Array),
      });
      expect(Object.fromEntries(d.standing.sites.map((site: { key: string; total: number }) => [site.key, site.total]))).toEqual(
        Object.fromEntries(
          expectedProviderCounts(mine, 0, Infinity)
            .filter((p) => p.count > 0)
            .map((p) => [p.key, p.count]),
        ),
      );
    });

    it('pages through every vote newest first (default limit 20)', async () => {
      const mine = steve();
      const first = await get('/v1/stats/voter/STEVE');
      expect(first.body.data.pagination).toEqual({ page: 1, limit: 20, total: mine.length, pages: Math.ceil(mine.length / 20) });
      const all: any[] = [];
      const pages = Math.ceil(mine.length / 7);
      for (let page = 1; page <= pages; page++) {
        const res = await get(`/v1/stats/voter/steve?limit=7&page=${page}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.data.pagination).toEqual({ page, limit: 7, total: mine.length, pages });
        expect(res.body.data.votes.length).toBe(page < pages ? 7 : mine.length - 7 * (pages - 1));
        all.push(...res.body.data.votes);
      }
      expectSameVotes(all, mine);
      const beyond = await get(`/v1/stats/voter/steve?limit=7&page=${pages + 1}`);
      expect(beyond.body.data.votes).toEqual([]);
    });

    it('provider and from/to narrow the vote list', async () => {
      const mine = steve();
      const alpha = mine.filter((v) => v.provider === 'alpha');
      const res = await get('/v1/stats/voter/Steve?provider=alpha&limit=100');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.pagination.total).toBe(alpha.length);
      expectSameVotes(res.body.data.votes, alpha);
      const ranged = mine.filter((v) => v.at >= t('2025-06-01T00:00:00.000Z') && v.at < t('2026-01-01T00:00:00.000Z'));
      const r2 = await get('/v1/stats/voter/steve?from=2025-06-01&to=2025-12-31&limit=100');
      expect(r2.body.data.pagination.total).toBe(ranged.length);
      expectSameVotes(r2.body.data.votes, ranged);
    });

    it("with a provider filter the summary describes that provider's votes (first/last vote included)", async () => {
      const alpha = steve().filter((v) => v.provider === 'alpha');
      const res = await get('/v1/stats/voter/steve?provider=alpha');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.summary.total).toBe(alpha.length);
      expect(res.body.data.summary.first_vote).toBe(iso(Math.min(...alpha.map((v) => v.at))));
      expect(res.body.data.summary.last_vote).toBe(iso(Math.max(...alpha.map((v) => v.at))));
    });
  });

  describe('GET /v1/votes', () => {
    it('pages newest first with page, limit, total and pages in meta next to request_id', async () => {
      const res = await get('/v1/votes');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(Object.keys(res.body.meta).sort()).toEqual(['limit', 'page', 'pages', 'request_id', 'total']);
      expect(res.body.meta).toMatchObject({ page: 1, limit: 50, total: votes.length, pages: Math.ceil(votes.length / 50) });
      expect(res.body.data.votes).toHaveLength(50);
      expect(res.body.data.votes.map((v: any) => v.received_at)).toEqual(
        newestFirst(votes)
          .slice(0, 50)
          .map((v) => iso(v.at)),
      );
      const p3 = await get('/v1/votes?page=3&limit=25');
      expect(p3.body.meta).toMatchObject({ page: 3, limit: 25, total: votes.length, pages: Math.ceil(votes.length / 25) });
      expect(p3.body.data.votes.map((v: any) => v.received_at)).toEqual(
        newestFirst(votes)
          .slice(50, 75)
          .map((v) => iso(v.at)),
      );
      const last = await get(`/v1/votes?page=${Math.ceil(votes.length / 100)}&limit=100`);
      expect(last.body.data.votes).toHaveLength(votes.length % 100 || 100);
      const beyond = await get(`/v1/votes?page=${Math.ceil(votes.length / 100) + 1}&limit=100`);
      expect(beyond.status).toBe(200);
      expect(beyond.body.data.votes).toEqual([]);
      expectSameVotes(await allVotes(''), votes);
    });

    it('filters: provider, from, to, voter, chat_status, callback_status (and combinations)', async () => {
      const cases: [string, (v: GenVote) => boolean][] = [
        ['provider=beta', (v) => v.provider === 'beta'],
        ['from=2025-12-29&to=2026-01-04', (v) => v.at >= t('2025-12-29T00:00:00.000Z') && v.at < t('2026-01-05T00:00:00.000Z')],
        ['from=2026-03-09', (v) => v.at >= t('2026-03-09T00:00:00.000Z')],
        ['to=2025-02-28', (v) => v.at < t('2025-03-01T00:00:00.000Z')],
        [
          `from=${encodeURIComponent('2025-12-31T23:59:59.999Z')}&to=${encodeURIComponent('2026-01-01T00:00:00.000Z')}`,
          (v) => v.at >= t('2025-12-31T23:59:59.999Z') && v.at <= t('2026-01-01T00:00:00.000Z'),
        ],
        ['voter=sTeVe', (v) => v.voterKey === 'steve'],
        ['voter=STEV', () => false],
        ['chat_status=pending', (v) => v.chatStatus === 'pending'],
        ['chat_status=sent', (v) => v.chatStatus === 'sent'],
        ['callback_status=failed', (v) => v.callbackStatus === 'failed'],
        ['callback_status=sent', (v) => v.callbackStatus === 'sent'],
        ['callback_status=retrying', () => false],
        ['chat_status=pending&callback_status=pending', (v) => v.chatStatus === 'pending' && v.callbackStatus === 'pending'],
        [
          'provider=alpha&voter=alice&from=2025-06-01&to=2026-03-15',
          (v) => v.provider === 'alpha' && v.voterKey === 'alice' && v.at >= t('2025-06-01T00:00:00.000Z'),
        ],
      ];
      for (const [query, keep] of cases) {
        const expected = votes.filter(keep);
        const first = await get(`/v1/votes?${query}&limit=10`);
        expect(first.status, `${query}: ${JSON.stringify(first.body)}`).toBe(200);
        expect(first.body.meta, query).toMatchObject({ page: 1, limit: 10, total: expected.length, pages: Math.ceil(expected.length / 10) });
        const all = await allVotes(query);
        expect(all.length, query).toBe(expected.length);
        expectSameVotes(all, expected);
      }
      expect(votes.filter((v) => v.at >= t('2025-12-31T23:59:59.999Z') && v.at <= t('2026-01-01T00:00:00.000Z'))).toHaveLength(2);
    });

    it('every vote carries the standing it made, counted from the votes before it', async () => {
      const read: Record<string, unknown>[] = [];
      for (let page = 1; ; page++) {
        const res = await app.request('POST', '/graphql', {
          key: org.key,
          body: {
            query: `{ votes(page: ${page}, limit: 100) { pages votes { publicId voterTotal voterMonthTotal voterStreakDays voterBestStreakDays providerVoterTotal nextVoteAt } } }`,
          },
        });
        read.push(...res.body.data.votes.votes);
        if (page >= res.body.data.votes.pages) break;
      }
      expect(read).toHaveLength(votes.length);
      const byId = new Map(read.map((r) => [r.publicId, r]));
      const streaks = new Set<number>();
      for (const v of votes) {
        const e = expectedStanding(v);
        streaks.add(e.voter_streak_days);
        expect(byId.get(v.publicId), `${v.voter} at ${iso(v.at)}`).toEqual({
          publicId: v.publicId,
          voterTotal: e.voter_total,
          voterMonthTotal: e.voter_month_total,
          voterStreakDays: e.voter_streak_days,
          voterBestStreakDays: e.voter_best_streak_days,
          providerVoterTotal: e.provider_voter_total,
          nextVoteAt: null,
        });
      }
      expect(Math.max(...streaks)).toBeGreaterThan(2); // the data set has streaks worth checking
    });

    it("GET /v1/votes/:public_id returns the full vote; another organization's vote is NOT_FOUND", async () => {
      const chatSent = votes.find((v) => v.chatStatus === 'sent')!;
      const cbSent = votes.find((v) => v.callbackStatus === 'sent')!;
      const cbFailed = votes.find((v) => v.callbackStatus === 'failed')!;
      const plain = votes.find((v) => v.chatStatus === 'skipped' && v.callbackStatus === 'skipped')!;
      for (const v of [chatSent, cbSent, cbFailed, plain]) {
        const res = await get(`/v1/votes/${v.publicId}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.data).toEqual({
          id: expect.any(String),
          public_id: v.publicId,
          voter_name: v.voter,
          provider_key: v.provider,
          provider_name: providerName(v.provider),
          received_at: iso(v.at),
          chat_status: v.chatStatus,
          chat_sent_at: v.chatSentAt,
          callback_status: v.callbackStatus,
          callback_sent_at: v.callbackSentAt,
          callback_attempts: v.callbackAttempts,
          test: false,
          voter_id: expect.stringMatching(/^vtr_/),
          ...expectedStanding(v),
        });
      }
      const other = await app.createOrg({ plan: 'business' });
      const res = await get(`/v1/votes/${plain.publicId}`, other.key);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      const unknown = await get('/v1/votes/vt_00000000-0000-4000-8000-000000000000');
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('NOT_FOUND');
    });
  });

  describe('GET /v1/votes/export', () => {
    const row = (v: GenVote) => [v.voter, v.provider, iso(v.at), v.chatStatus, v.callbackStatus].join(',');
    async function exportRows(query: string) {
      const res = await get(`/v1/votes/export${query}`);
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv\b/);
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="votes.csv"');
      const lines = res.text.split(/\r?\n/);
      if (lines[lines.length - 1] === '') lines.pop();
      expect(lines[0]).toBe('voter_name,provider,received_at,chat_status,callback_status');
      return lines.slice(1);
    }

    it('every vote, one row each, under the exact header', async () => {
      const rows = await exportRows('');
      expect(rows).toHaveLength(votes.length);
      expect([...rows].sort()).toEqual(votes.map(row).sort());
    });

    it('from/to filters (date-only `to` includes its whole day; ISO bounds exact)', async () => {
      for (const [query, from, toExclusive] of [
        ['?from=2026-03-01&to=2026-03-15', t('2026-03-01T00:00:00.000Z'), t('2026-03-16T00:00:00.000Z')],
        ['?from=2025-12-29&to=2026-01-04', t('2025-12-29T00:00:00.000Z'), t('2026-01-05T00:00:00.000Z')],
        ['?to=2025-01-31', 0, t('2025-02-01T00:00:00.000Z')],
        ['?from=2026-03-14T23:59:59.999Z&format=csv', t('2026-03-14T23:59:59.999Z'), Infinity],
        ['?from=2020-01-01&to=2020-01-31', t('2020-01-01T00:00:00.000Z'), t('2020-02-01T00:00:00.000Z')],
      ] as const) {
        const rows = await exportRows(query);
        expect([...rows].sort(), query).toEqual(
          votes
            .filter((v) => v.at >= from && v.at < toExclusive)
            .map(row)
            .sort(),
        );
      }
    });
  });

  describe('plans', () => {
    it('starter: GET /v1/votes returns the last 10 votes, ignoring filters and paging, with meta', async () => {
      const starter = await app.createOrg({ plan: 'starter' });
      const path = await createProvider(starter, 'solo', 'Solo List');
      const cast: { id: string; at: number }[] = [];
      for (let i = 0; i < 13; i++) {
        const at = t('2026-03-01T00:00:00.000Z') + i * 3_600_000;
        cast.push({ id: await castAt(path, i % 2 ? 'Steve' : 'Alex', at), at });
      }
      const expected = [...cast].sort((a, b) => b.at - a.at).slice(0, 10);
      for (const query of ['', '?page=2&limit=5', '?voter=alex&from=2026-03-01&to=2026-03-01&chat_status=sent&provider=solo&limit=100']) {
        const res = await get(`/v1/votes${query}`, starter.key);
        expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
        expect(
          res.body.data.votes.map((v: any) => v.public_id),
          query,
        ).toEqual(expected.map((v) => v.id));
        expect(res.body.data.votes.map((v: any) => v.received_at)).toEqual(expected.map((v) => iso(v.at)));
        expect(res.body.meta).toEqual({
          page: expect.any(Number),
          limit: expect.any(Number),
          total: expect.any(Number),
          pages: expect.any(Number),
          request_id: expect.any(String),
        });
        expect(res.body.meta.page).toBe(1);
      }
      const gated: [string, string][] = [
        ['/v1/stats/dashboard', 'growth'],
        ['/v1/stats/trend', 'growth'],
        ['/v1/stats/by-provider', 'growth'],
        ['/v1/votes/export', 'growth'],
        [`/v1/votes/${cast[0].id}`, 'growth'],
        ['/v1/stats/leaderboard', 'pro'],
        ['/v1/stats/voter/steve', 'pro'],
      ];
      for (const [p, required] of gated) {
        const res = await get(p, starter.key);
        expect(res.status, p).toBe(403);
        expect(res.body.error.code, p).toBe('PLAN_UPGRADE_REQUIRED');
        expect(res.body.error.details, p).toEqual({ required_plan: required, current_plan: 'starter' });
        expect(res.body.meta.request_id).toBeTruthy();
      }
    });

    it('growth: voter stats and leaderboard need Pro', async () => {
      const growth = await app.createOrg({ plan: 'growth' });
      for (const p of ['/v1/stats/leaderboard', '/v1/stats/voter/steve', '/v1/stats/leaderboard?days=7']) {
        const res = await get(p, growth.key);
        expect(res.status, p).toBe(403);
        expect(res.body.error).toMatchObject({ code: 'PLAN_UPGRADE_REQUIRED', details: { required_plan: 'pro', current_plan: 'growth' } });
      }
      for (const p of ['/v1/stats/dashboard', '/v1/stats/trend', '/v1/stats/by-provider', '/v1/votes', '/v1/votes/export']) {
        expect((await get(p, growth.key)).status, p).toBe(200);
      }
    });
  });

  describe('bad parameters', () => {
    it('answer 400 VALIDATION_ERROR naming the parameter', async () => {
      const cases: [string, string[]][] = [
        ['/v1/stats/trend?granularity=hour', ['granularity']],
        ['/v1/votes?limit=0', ['limit']],
        ['/v1/votes?limit=1000', ['limit']],
        ['/v1/votes?limit=101', ['limit']],
        ['/v1/votes?limit=abc', ['limit']],
        ['/v1/votes?limit=-5', ['limit']],
        ['/v1/votes?page=0', ['page']],
        ['/v1/votes?page=abc', ['page']],
        ['/v1/stats/leaderboard?limit=0', ['limit']],
        ['/v1/stats/leaderboard?limit=1000', ['limit']],
        ['/v1/stats/leaderboard?limit=abc', ['limit']],
        ['/v1/stats/leaderboard?days=0', ['days']],
        ['/v1/stats/leaderboard?days=-1', ['days']],
        ['/v1/stats/leaderboard?days=abc', ['days']],
        ['/v1/stats/voter/steve?limit=0', ['limit']],
        ['/v1/stats/voter/steve?limit=1000', ['limit']],
        ['/v1/stats/voter/steve?page=0', ['page']],
        ['/v1/stats/trend?from=2026-03-10&to=2026-03-01', ['from', 'to']],
        ['/v1/stats/by-provider?from=2026-03-10T00:00:00Z&to=2026-03-09T23:59:59Z', ['from', 'to']],
        ['/v1/votes?from=2026-03-10&to=2026-03-01', ['from', 'to']],
        ['/v1/votes/export?from=2026-03-10&to=2026-03-01', ['from', 'to']],
        ['/v1/stats/voter/steve?from=2026-03-10&to=2026-03-01', ['from', 'to']],
        ['/v1/stats/trend?from=2026-02-30', ['from']],
        ['/v1/votes?from=2026-02-30', ['from']],
        ['/v1/stats/by-provider?to=2025-02-29', ['to']],
        ['/v1/votes/export?to=2026-13-01', ['to']],
        ['/v1/stats/trend?from=yesterday', ['from']],
        ['/v1/votes?from=yesterday', ['from']],
        ['/v1/stats/by-provider?from=yesterday', ['from']],
        ['/v1/votes/export?from=yesterday', ['from']],
        ['/v1/votes?chat_status=bogus', ['chat_status']],
        ['/v1/votes?callback_status=bogus', ['callback_status']],
        ['/v1/votes?provider=unknown-key', ['provider']],
        ['/v1/stats/trend?provider=unknown-key', ['provider']],
        ['/v1/stats/leaderboard?provider=unknown-key', ['provider']],
        ['/v1/stats/voter/steve?provider=unknown-key', ['provider']],
        ['/v1/votes/export?format=xml', ['format']],
      ];
      for (const [path, fields] of cases) {
        const res = await get(path);
        expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.error.code, path).toBe('VALIDATION_ERROR');
        expect(
          fieldsOf(res).some((f) => fields.includes(f)),
          `${path} names ${fields.join('/')}: ${JSON.stringify(res.body.error.details)}`,
        ).toBe(true);
        expect(res.body.meta.request_id).toBeTruthy();
      }
    });

    it('impossible calendar dates are refused in full ISO timestamps too', async () => {
      for (const path of [
        '/v1/stats/trend?from=2026-02-30T00:00:00Z',
        '/v1/votes?from=2026-02-31T10:00:00.000Z',
        '/v1/stats/by-provider?to=2025-04-31T00:00:00Z',
      ]) {
        const res = await get(path);
        expect.soft(res.status, `${path}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(400);
        expect.soft(res.body.error?.code, path).toBe('VALIDATION_ERROR');
      }
    });
  });

  describe('deleting a provider', () => {
    it('removes its votes from every figure', async () => {
      const beta = votes.filter((v) => v.provider === 'beta');
      expect(beta.length).toBeGreaterThan(0);
      const res = await app.request('DELETE', '/v1/providers/beta', { key: org.key });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.votes_deleted).toBe(beta.length);
      votes = votes.filter((v) => v.provider !== 'beta');
      const remaining = PROVIDERS.filter((p) => p.key !== 'beta');

      const dash = await get('/v1/stats/dashboard');
      expect(dash.body.data.summary).toEqual(summaryOf(votes));
      expect(byKey(dash.body.data.by_provider)).toEqual(expectedProviderCounts(votes, windowStart(30), NOW.getTime() + 1, remaining));
      expect(dash.body.data.daily_trend).toEqual(last30Days(votes));

      const share = await get('/v1/stats/by-provider?from=2025-01-01&to=2026-03-15');
      expect(share.body.data.total).toBe(votes.length);
      expect(byKey(share.body.data.providers).map(({ key, count }: any) => ({ key, count }))).toEqual(
        expectedProviderCounts(votes, 0, Infinity, remaining).map(({ key, count }) => ({ key, count })),
      );

      const board = await get('/v1/stats/leaderboard?limit=100');
      expect(board.body.data.voters.map((v: any) => ({ key: v.name.toLowerCase(), votes: v.votes, last_vote: v.last_vote }))).toEqual(
        expectedLeaderboard(votes, windowStart(30), 100),
      );
      const steve = votes.filter((v) => v.voterKey === 'steve');
      const voter = await get('/v1/stats/voter/steve');
      expect(voter.body.data.summary.total).toBe(steve.length);
      expect(voter.body.data.by_provider.filter((p: any) => p.count > 0).map((p: any) => p.key)).not.toContain('beta');

      const trend = await get('/v1/stats/trend?from=2024-12-01&to=2026-03-15&granularity=month');
      expect(trend.body.data.trend).toEqual(expectedTrend(votes, t('2024-12-01T00:00:00.000Z'), t('2026-03-16T00:00:00.000Z'), 'month'));

      const list = await get('/v1/votes?limit=1');
      expect(list.body.meta.total).toBe(votes.length);
      const exported = await get('/v1/votes/export');
      expect(exported.text.trim().split(/\r?\n/)).toHaveLength(votes.length + 1);
      const gone = await get('/v1/votes?provider=beta');
      expect(gone.status).toBe(400);
    });
  });

  describe('query count', () => {
    it('listing votes costs a small, constant number of statements whatever the page size (REST and GraphQL)', async () => {
      const o = await app.createOrg({ plan: 'business' });
      const paths = await Promise.all(['p1', 'p2', 'p3'].map((k, i) => createProvider(o, k, `Provider ${i + 1}`)));
      // Instants do not matter here: 100 unique bodies, sent 25 at a time at one clock reading.
      clock.set(t('2026-03-10T00:00:00.000Z'));
      for (let batch = 0; batch < 4; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 25 }, (_, j) => {
            const i = batch * 25 + j;
            return app.request('POST', paths[i % 3], { body: { player: { name: `voter${i % 17}` }, seq: ++seq } });
          }),
        );
        for (const a of answers) expect(a.body.data?.duplicate, JSON.stringify(a.body)).toBe(false);
      }
      clock.set(NOW.getTime());
      const list = (limit: number) => app.request('GET', `/v1/votes?limit=${limit}`, { key: o.key });
      const gql = (limit: number) =>
        app.request('POST', '/graphql', { key: o.key, body: { query: `{ votes(limit: ${limit}) { votes { publicId providerKey providerName } } }` } });

      await list(5); // first use of the key records last_used_at once
      const measure = async (call: () => Promise<ApiResponse>) => {
        // The hook request log writes its queue on a timer; written now, it cannot land inside the measured call.
        await app.hookRequestLog.flush();
        const before = app.deps.db.queryCount();
        const res = await call();
        const after = app.deps.db.queryCount();
        expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
        return { res, statements: after - before };
      };

      const rest10 = await measure(() => list(10));
      const rest100 = await measure(() => list(100));
      expect(rest10.res.body.data.votes).toHaveLength(10);
      expect(rest100.res.body.data.votes).toHaveLength(100);
      expect(new Set(rest100.res.body.data.votes.map((v: any) => v.provider_key))).toEqual(new Set(['p1', 'p2', 'p3']));
      expect(rest100.statements).toBe(rest10.statements);
      // Measured: 6 on both databases (the key, its organization, the count, the test votes counted apart since the
      // rollups hold none, the page of votes, their providers).
      expect(rest100.statements).toBeLessThanOrEqual(7);

      const gql100 = await measure(() => gql(100));
      const gql10 = await measure(() => gql(10));
      expect(gql100.res.body.errors).toBeUndefined();
      expect(gql100.res.body.data.votes.votes).toHaveLength(100);
      expect(gql100.res.body.data.votes.votes[0]).toEqual({
        publicId: expect.stringMatching(/^vt_/),
        providerKey: expect.any(String),
        providerName: expect.any(String),
      });
      expect(gql100.statements).toBe(gql10.statements);
      expect(gql100.statements).toBeLessThanOrEqual(7);
      console.info(`[stats.test] statements per vote list: REST ${rest100.statements}, GraphQL ${gql100.statements}`);
    });
  });
});
