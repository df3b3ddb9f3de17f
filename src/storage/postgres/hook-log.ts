// The hook request log's write on PostgreSQL (../hook-log.ts has the logic, written once as a generator of
// statements): each statement one round trip, all of a batch in one transaction, group-committed.
import { randomUUID } from 'node:crypto';
import {
  createTallies,
  KEEP_ORDER_PG,
  OTHER_SENDERS,
  scopeKey,
  writeItem,
  type HookLogDrop,
  type HookLogItem,
  type HookLogResult,
  type HookLogRow,
  type Scope,
  type Statement,
} from '../hook-log.js';
import type { PgNamedWrite, Query } from './transaction.js';
const ts = (ms: number) => new Date(ms).toISOString();

export function createPgHookLogWrite(): PgNamedWrite<HookLogItem, HookLogResult> {
  const tallies = createTallies();
  const scopeCond = (s: Scope, first: number) =>
    s.providerId
      ? { cond: `"providerId" = $${first}`, values: [s.providerId] }
      : { cond: `"providerId" IS NULL AND "organizationId" = $${first}`, values: [s.organizationId] };
  const refusedCond = (s: Scope, clientIps: string[] | null) => {
    const { cond, values } = scopeCond(s, 1);
    return clientIps === null
      ? { cond: `${cond} AND outcome = 'refused'`, values }
      : { cond: `${cond} AND outcome = 'refused' AND "clientIp" = ANY($2::text[])`, values: [...values, clientIps] };
  };

  async function run(query: Query, statement: Statement): Promise<unknown> {
    switch (statement.op) {
      case 'insert': {
        const r = statement.rows;
        const col = <K extends keyof HookLogRow>(k: K) => r.map((row) => row[k]);
        await query({
          name: 'vr_hook_log_insert',
          text: `INSERT INTO "HookRequest" (id, "organizationId", "providerId", "providerKey", "receivedAt", "clientIp", method, path, protocol, outcome, status,
                   "errorCode", reason, "voterName", "voteId", "durationMs", "headersJson", body, "bodyBytes", "repairedFrom")
                 SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamp(3)[], $6::text[], $7::text[], $8::text[], $9::text[],
                   $10::text[], $11::int[], $12::text[], $13::text[], $14::text[], $15::text[], $16::int[], $17::text[], $18::text[], $19::int[], $20::text[])`,
          values: [
            col('id'),
            col('organizationId'),
            col('providerId'),
            col('providerKey'),
            r.map((row) => ts(row.receivedAt)),
            col('clientIp'),
            col('method'),
            col('path'),
            col('protocol'),
            col('outcome'),
            col('status'),
            col('errorCode'),
            col('reason'),
            col('voterName'),
            col('voteId'),
            col('durationMs'),
            col('headersJson'),
            col('body'),
            col('bodyBytes'),
            col('repairedFrom'),
          ],
        });
        return null;
      }
      case 'addDrops': {
        // One row per (scope, address) in this statement: ON CONFLICT may not touch a row twice.
        const merged = new Map<string, HookLogDrop>();
        for (const d of statement.drops) {
          const key = `${scopeKey(d)}|${d.clientIp}`;
          const m = merged.get(key);
          if (m) Object.assign(m, { count: m.count + d.count, firstAt: Math.min(m.firstAt, d.firstAt), lastAt: Math.max(m.lastAt, d.lastAt) });
          else merged.set(key, { ...d });
        }
        const ds = [...merged.values()].sort((a, b) => (`${scopeKey(a)}|${a.clientIp}` < `${scopeKey(b)}|${b.clientIp}` ? -1 : 1));
        await query({
          name: 'vr_hook_log_drops',
          text: `INSERT INTO "HookRequestDrop" AS t (id, "organizationId", "providerId", scope, "clientIp", count, "firstAt", "lastAt")
                 SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::timestamp(3)[], $8::timestamp(3)[])
                 ON CONFLICT (scope, "clientIp") DO UPDATE SET count = t.count + excluded.count,
                   "firstAt" = LEAST(t."firstAt", excluded."firstAt"), "lastAt" = GREATEST(t."lastAt", excluded."lastAt")`,
          values: [
            ds.map(() => randomUUID()),
            ds.map((d) => d.organizationId),
            ds.map((d) => d.providerId),
            ds.map((d) => scopeKey(d)),
            ds.map((d) => d.clientIp),
            ds.map((d) => d.count),
            ds.map((d) => ts(d.firstAt)),
            ds.map((d) => ts(d.lastAt)),
          ],
        });
        return null;
      }
      case 'countRefused': {
        const { cond, values } = refusedCond(statement.scope, null);
        return Number((await query<{ n: string }>({ text: `SELECT count(*) AS n FROM "HookRequest" WHERE ${cond}`, values })).rows[0].n);
      }
      case 'trimRefused': {
        const { cond, values } = refusedCond(statement.scope, statement.clientIps);
        const rows = (
          await query<{ id: string; clientIp: string; at: number }>({
            text: `DELETE FROM "HookRequest" WHERE id IN (SELECT id FROM "HookRequest" WHERE ${cond} ORDER BY ${KEEP_ORDER_PG} OFFSET $${values.length + 1})
                   RETURNING id, "clientIp", (extract(epoch FROM "receivedAt") * 1000)::float8 AS at`,
            values: [...values, statement.keep],
          })
        ).rows;
        return Object.assign(
          rows.map((r) => ({ clientIp: r.clientIp, receivedAt: Math.round(Number(r.at)) })),
          { ids: rows.map((r) => r.id) },
        );
      }
      case 'countByAddress': {
        const { cond, values } = refusedCond(statement.scope, null);
        const rows = (
          await query<{ clientIp: string; n: string }>({
            text: `SELECT "clientIp", count(*) AS n FROM "HookRequest" WHERE ${cond} GROUP BY "clientIp"`,
            values,
          })
        ).rows;
        return rows.map((r) => ({ clientIp: r.clientIp, n: Number(r.n) }));
      }
      case 'countDropRows':
        return Number(
          (
            await query<{ n: string }>({
              name: 'vr_hook_log_drop_rows',
              text: `SELECT count(*) AS n FROM "HookRequestDrop" WHERE scope = $1 AND "clientIp" <> $2`,
              values: [scopeKey(statement.scope), OTHER_SENDERS],
            })
          ).rows[0].n,
        );
      case 'dropRowsOf':
        return (
          await query<{ clientIp: string }>({
            name: 'vr_hook_log_drop_rows_of',
            text: `SELECT "clientIp" FROM "HookRequestDrop" WHERE scope = $1 AND "clientIp" = ANY($2::text[])`,
            values: [scopeKey(statement.scope), statement.senders],
          })
        ).rows.map((r) => r.clientIp);
      case 'countKept':
        return Number(
          (
            await query<{ n: string }>({
              name: 'vr_hook_log_count_kept',
              text: `SELECT count(*) AS n FROM "HookRequest" WHERE "providerId" = $1 AND outcome <> 'refused'`,
              values: [statement.providerId],
            })
          ).rows[0].n,
        );
      case 'deleteOldestKept':
        return (
          await query<{ id: string }>({
            name: 'vr_hook_log_rotate',
            text: `DELETE FROM "HookRequest" WHERE id IN (SELECT id FROM "HookRequest" WHERE "providerId" = $1 AND outcome <> 'refused'
                     ORDER BY "receivedAt" ASC, id ASC LIMIT $2) RETURNING id`,
            values: [statement.providerId, statement.count],
          })
        ).rows.map((r) => r.id);
      case 'retainEntries':
        return (
          (
            await query(
              statement.providerId
                ? {
                    text: `DELETE FROM "HookRequest" WHERE id IN (SELECT id FROM "HookRequest" WHERE "providerId" = $1 AND "receivedAt" < $2 LIMIT $3)`,
                    values: [statement.providerId, ts(statement.before), statement.limit],
                  }
                : {
                    text: `DELETE FROM "HookRequest" WHERE id IN (SELECT id FROM "HookRequest" WHERE "providerId" IS NULL AND "receivedAt" < $1 LIMIT $2)`,
                    values: [ts(statement.before), statement.limit],
                  },
            )
          ).rowCount ?? 0
        );
      case 'retainDrops':
        return (await query({ text: `DELETE FROM "HookRequestDrop" WHERE "lastAt" < $1`, values: [ts(statement.before)] })).rowCount ?? 0;
    }
  }

  return {
    // One batch at a time (the writes.ts default): the tallies follow the batches in order.
    async write(query, items) {
      const results: HookLogResult[] = [];
      try {
        for (const item of items) {
          const steps = writeItem(item, tallies);
          let step = steps.next();
          while (!step.done) step = steps.next(await run(query, step.value));
          results.push(step.value);
        }
      } catch (err) {
        tallies.clear();
        throw err;
      }
      return results;
    },
  };
}
