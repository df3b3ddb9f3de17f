// The one table the baselines that store votes write to: what a bot owner would keep per vote. Fresh per run.
// SQLite (default): a file in WAL mode with synchronous=FULL (every commit is fsynced before the INSERT returns),
// like the service on SQLite. PostgreSQL (BENCH_DB_URL=postgres://…, the benchmarks' PostgreSQL mode): one INSERT
// per vote on a pool of 10 connections, each committed (synchronous_commit on) before the answer, like the service.
import Database from 'better-sqlite3';
import pg from 'pg';

export interface VoteRow {
  bot: string | null;
  user: string;
  type: string | null;
  isWeekend: boolean;
  query: string;
}

export interface VoteDb {
  /** Resolves once the row is committed (and synced). Returns the row's id. */
  insert(vote: VoteRow): Promise<number>;
  close(): void;
}

const COLUMNS = `bot TEXT, "user" TEXT NOT NULL, type TEXT, is_weekend INTEGER NOT NULL, query TEXT NOT NULL, received_at BIGINT NOT NULL`;

function openSqlite(path: string): VoteDb {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE IF NOT EXISTS votes (id INTEGER PRIMARY KEY, ${COLUMNS})`);
  const insert = db.prepare('INSERT INTO votes (bot, "user", type, is_weekend, query, received_at) VALUES (?, ?, ?, ?, ?, ?)');
  return {
    async insert(vote) {
      return Number(insert.run(vote.bot, vote.user, vote.type, vote.isWeekend ? 1 : 0, vote.query, Date.now()).lastInsertRowid);
    },
    close: () => db.close(),
  };
}

async function openPostgres(url: string): Promise<VoteDb> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  await pool.query(`CREATE TABLE IF NOT EXISTS votes (id BIGSERIAL PRIMARY KEY, ${COLUMNS})`);
  return {
    async insert(vote) {
      const result = await pool.query<{ id: string }>({
        name: 'insert_vote',
        text: 'INSERT INTO votes (bot, "user", type, is_weekend, query, received_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
        values: [vote.bot, vote.user, vote.type, vote.isWeekend ? 1 : 0, vote.query, Date.now()],
      });
      return Number(result.rows[0].id);
    },
    close: () => void pool.end(),
  };
}

export function openVoteDb(path: string): Promise<VoteDb> {
  const url = process.env.BENCH_DB_URL;
  return url && /^postgres(ql)?:\/\//.test(url) ? openPostgres(url) : Promise.resolve(openSqlite(path));
}

export { listenSettings } from './http-kit.js';
