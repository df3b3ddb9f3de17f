// The SQLite export cursor against a real SQLite file: tiny chunks, many votes sharing one instant across chunk
// boundaries, and range bounds; the expected rows are computed here from what was inserted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { exportRowsSqlite } from './export.js';

const dir = mkdtempSync(join(tmpdir(), 'vote-relay-export-'));
const path = join(dir, 'votes.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Row {
  id: string;
  org: string;
  voter: string;
  provider: string;
  at: number;
  test: boolean;
}
const rows: Row[] = [];
{
  const db = new Sqlite(path);
  db.exec(`CREATE TABLE "Vote" (id TEXT PRIMARY KEY, organizationId TEXT, voterName TEXT, providerId TEXT, receivedAt INTEGER,
    chatStatus TEXT, callbackStatus TEXT, test BOOLEAN NOT NULL DEFAULT false); CREATE INDEX v_org_at ON "Vote"(organizationId, receivedAt);
    CREATE TABLE "Provider" (id TEXT PRIMARY KEY, key TEXT); INSERT INTO "Provider" VALUES ('p1', 'one'), ('p2', 'two')`);
  const insert = db.prepare('INSERT INTO "Vote" VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  let n = 0;
  const add = (org: string, at: number) => {
    // Every fifth vote of org-a is a test vote: left out unless asked for, and never a reason to stop early.
    const row = {
      id: `id-${String((n * 7919) % 1000).padStart(4, '0')}-${n}`,
      org,
      voter: `voter${n}`,
      provider: n % 2 ? 'p1' : 'p2',
      at,
      test: org === 'org-a' && n % 5 === 0,
    };
    n++;
    rows.push(row);
    insert.run(row.id, row.org, row.voter, row.provider, row.at, 'sent', 'pending', row.test ? 1 : 0);
  };
  const base = Date.UTC(2026, 0, 1);
  for (let i = 0; i < 5; i++) add('org-a', base + i);
  for (let i = 0; i < 23; i++) add('org-a', base + 1_000); // 23 votes at one instant: spans several chunks of 7
  for (let i = 0; i < 6; i++) add('org-b', base + 1_000); // another organization, same instant
  for (let i = 0; i < 9; i++) add('org-a', base + 2_000 + (i % 3));
  // Times formatted by SQLite must read exactly as Date#toISOString writes them: every millisecond digit, any year.
  let seed = 7;
  for (let i = 0; i < 2_000; i++) {
    seed = (seed * 48_271) % 2_147_483_647;
    add('org-times', Date.UTC(1990, 0, 1) + Math.floor((seed / 2_147_483_647) * 80 * 365.25 * 86_400_000));
  }
  for (const ms of [0, 999, 1_000, Date.UTC(2026, 11, 31, 23, 59, 59, 999), Date.UTC(2027, 0, 1), Date.UTC(2024, 1, 29, 12, 0, 0, 1)]) add('org-times', ms);
  db.close();
}

const providers = new Map([
  ['p1', 'one'],
  ['p2', 'two'],
]);
const expected = (org: string, from: number | null, to: number | null, includeTests = false) =>
  rows
    .filter((r) => r.org === org && (from === null || r.at >= from) && (to === null || r.at < to) && (includeTests || !r.test))
    .sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1))
    .map((r) => [r.voter, providers.get(r.provider), new Date(r.at).toISOString(), 'sent', 'pending', ...(includeTests ? [String(r.test)] : [])]);

async function collect(org: string, from: number | null, to: number | null, chunk: number, includeTests = false) {
  const out: string[][] = [];
  for await (const batch of exportRowsSqlite(
    path,
    org,
    { from: from === null ? null : new Date(from), toExclusive: to === null ? null : new Date(to) },
    chunk,
    includeTests,
  )) {
    expect(batch.length).toBeLessThanOrEqual(chunk);
    out.push(...batch);
  }
  return out;
}

describe('SQLite export cursor', () => {
  it('returns every row once, oldest first, whatever the chunk size', async () => {
    for (const chunk of [1, 2, 7, 23, 24, 1_000]) expect(await collect('org-a', null, null, chunk), `chunk ${chunk}`).toEqual(expected('org-a', null, null));
    expect(await collect('org-b', null, null, 4)).toEqual(expected('org-b', null, null));
  });

  it('leaves test votes out unless asked, then marks each row in a last column', async () => {
    expect(rows.some((r) => r.test)).toBe(true);
    for (const chunk of [1, 7, 1_000]) {
      expect(await collect('org-a', null, null, chunk, true), `chunk ${chunk}`).toEqual(expected('org-a', null, null, true));
    }
    expect((await collect('org-a', null, null, 7, true)).filter((r) => r[5] === 'true')).toHaveLength(rows.filter((r) => r.test).length);
  });

  it('writes each time as Date#toISOString does', async () => {
    const got = await collect('org-times', null, null, 500);
    expect(got).toHaveLength(2_006);
    expect(got).toEqual(expected('org-times', null, null));
  });

  it('honours the range bounds (from inclusive, to exclusive), also at the shared instant', async () => {
    const base = Date.UTC(2026, 0, 1);
    for (const [from, to] of [
      [base + 2, base + 1_000],
      [base + 1_000, base + 1_001],
      [base + 1_000, null],
      [null, base + 2_001],
      [base + 5_000, null],
    ] as const) {
      expect(await collect('org-a', from, to, 7), `${from}..${to}`).toEqual(expected('org-a', from, to));
    }
  });
});
