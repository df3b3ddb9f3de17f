// The hook request log's write on embedded SQLite (../hook-log.ts has the logic, written once as a generator of
// statements): each statement runs synchronously inside the named write's IMMEDIATE transaction (writes.ts).
import { randomUUID } from 'node:crypto';
import type Sqlite from 'better-sqlite3';
import {
  createTallies,
  KEEP_ORDER,
  OTHER_SENDERS,
  scopeKey,
  writeItem,
  type HookLogItem,
  type HookLogResult,
  type Scope,
  type Statement,
} from '../hook-log.js';
export function createSqliteHookLogWrite(db: Sqlite.Database): (items: HookLogItem[]) => HookLogResult[] {
  const tallies = createTallies();
  const insert = db.prepare(
    `INSERT INTO "HookRequest" (id, organizationId, providerId, providerKey, receivedAt, clientIp, method, path, protocol, outcome, status,
       errorCode, reason, voterName, repairedFrom, voteId, durationMs, headersJson, body, bodyBytes)
     VALUES (@id, @organizationId, @providerId, @providerKey, @receivedAt, @clientIp, @method, @path, @protocol, @outcome, @status,
       @errorCode, @reason, @voterName, @repairedFrom, @voteId, @durationMs, @headersJson, @body, @bodyBytes)`,
  );
  const addDrop = db.prepare(
    `INSERT INTO "HookRequestDrop" (id, organizationId, providerId, scope, clientIp, count, firstAt, lastAt)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (scope, clientIp) DO UPDATE SET count = count + excluded.count,
       firstAt = min(firstAt, excluded.firstAt), lastAt = max(lastAt, excluded.lastAt)`,
  );
  // A scope: a provider, or the organization's own log (providerId NULL); a sender's addresses as a JSON array.
  const where = (clientIps: boolean) => ({
    provider: `providerId = ? AND outcome = 'refused'${clientIps ? ' AND clientIp IN (SELECT value FROM json_each(?))' : ''}`,
    org: `providerId IS NULL AND organizationId = ? AND outcome = 'refused'${clientIps ? ' AND clientIp IN (SELECT value FROM json_each(?))' : ''}`,
  });
  const count = {
    provider: db.prepare(`SELECT count(*) AS n FROM "HookRequest" WHERE ${where(false).provider}`),
    org: db.prepare(`SELECT count(*) AS n FROM "HookRequest" WHERE ${where(false).org}`),
  };
  const trimSql = (cond: string) =>
    db.prepare(
      `DELETE FROM "HookRequest" WHERE id IN (SELECT id FROM "HookRequest" WHERE ${cond} ORDER BY ${KEEP_ORDER} LIMIT -1 OFFSET ?)
       RETURNING id, clientIp, receivedAt`,
    );
  const trim = {
    byAddress: { provider: trimSql(where(true).provider), org: trimSql(where(true).org) },
    byScope: { provider: trimSql(where(false).provider), org: trimSql(where(false).org) },
  };
  const byAddress = {
    provider: db.prepare(`SELECT clientIp, count(*) AS n FROM "HookRequest" WHERE ${where(false).provider} GROUP BY clientIp`),
    org: db.prepare(`SELECT clientIp, count(*) AS n FROM "HookRequest" WHERE ${where(false).org} GROUP BY clientIp`),
  };
  const countDropRows = db.prepare(`SELECT count(*) AS n FROM "HookRequestDrop" WHERE scope = ? AND clientIp <> ?`);
  const dropRowsOf = db.prepare(`SELECT clientIp FROM "HookRequestDrop" WHERE scope = ? AND clientIp IN (SELECT value FROM json_each(?))`).pluck();
  const countKept = db.prepare(`SELECT count(*) AS n FROM "HookRequest" WHERE providerId = ? AND outcome <> 'refused'`);
  const deleteOldestKept = db.prepare(
    `DELETE FROM "HookRequest" WHERE id IN (SELECT id FROM "HookRequest" WHERE providerId = ? AND outcome <> 'refused' ORDER BY receivedAt ASC, id ASC LIMIT ?) RETURNING id`,
  );
  const retain = {
    provider: db.prepare(`DELETE FROM "HookRequest" WHERE id IN (SELECT id FROM "HookRequest" WHERE providerId = ? AND receivedAt < ? LIMIT ?)`),
    org: db.prepare(`DELETE FROM "HookRequest" WHERE id IN (SELECT id FROM "HookRequest" WHERE providerId IS NULL AND receivedAt < ? LIMIT ?)`),
  };
  const retainDrops = db.prepare(`DELETE FROM "HookRequestDrop" WHERE lastAt < ?`);
  const scopeArgs = (s: Scope) => [s.providerId ?? s.organizationId];

  function run(statement: Statement): unknown {
    switch (statement.op) {
      case 'insert':
        for (const row of statement.rows) insert.run(row);
        return null;
      case 'addDrops':
        for (const d of statement.drops) addDrop.run(randomUUID(), d.organizationId, d.providerId, scopeKey(d), d.clientIp, d.count, d.firstAt, d.lastAt);
        return null;
      case 'countRefused':
        return (count[statement.scope.providerId ? 'provider' : 'org'].get(...scopeArgs(statement.scope)) as { n: number }).n;
      case 'trimRefused': {
        const kind = statement.scope.providerId ? 'provider' : 'org';
        const args = [...scopeArgs(statement.scope), ...(statement.clientIps === null ? [] : [JSON.stringify(statement.clientIps)]), statement.keep];
        const rows = trim[statement.clientIps === null ? 'byScope' : 'byAddress'][kind].all(...args) as { id: string; clientIp: string; receivedAt: number }[];
        return Object.assign(
          rows.map((r) => ({ clientIp: r.clientIp, receivedAt: Number(r.receivedAt) })),
          { ids: rows.map((r) => r.id) },
        );
      }
      case 'countByAddress':
        return byAddress[statement.scope.providerId ? 'provider' : 'org'].all(...scopeArgs(statement.scope)) as { clientIp: string; n: number }[];
      case 'countDropRows':
        return (countDropRows.get(scopeKey(statement.scope), OTHER_SENDERS) as { n: number }).n;
      case 'dropRowsOf':
        return dropRowsOf.all(scopeKey(statement.scope), JSON.stringify(statement.senders)) as string[];
      case 'countKept':
        return (countKept.get(statement.providerId) as { n: number }).n;
      case 'deleteOldestKept':
        return (deleteOldestKept.all(statement.providerId, statement.count) as { id: string }[]).map((r) => r.id);
      case 'retainEntries':
        return statement.providerId
          ? retain.provider.run(statement.providerId, statement.before, statement.limit).changes
          : retain.org.run(statement.before, statement.limit).changes;
      case 'retainDrops':
        return retainDrops.run(statement.before).changes;
    }
  }

  return (items) => {
    try {
      return items.map((item) => {
        const steps = writeItem(item, tallies);
        let step = steps.next();
        while (!step.done) step = steps.next(run(step.value));
        return step.value;
      });
    } catch (err) {
      tallies.clear();
      throw err;
    }
  };
}
