// The one table the baselines that store votes write to: what a bot owner would keep per vote. Fresh file per run,
// WAL + synchronous=FULL (every commit is fsynced before the INSERT returns), like the service on SQLite.
import Database from 'better-sqlite3';

export interface VoteRow {
  bot: string | null;
  user: string;
  type: string | null;
  isWeekend: boolean;
  query: string;
}

export function openVoteDb(path: string) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE IF NOT EXISTS votes (
    id INTEGER PRIMARY KEY,
    bot TEXT,
    user TEXT NOT NULL,
    type TEXT,
    is_weekend INTEGER NOT NULL,
    query TEXT NOT NULL,
    received_at INTEGER NOT NULL
  )`);
  const insert = db.prepare('INSERT INTO votes (bot, user, type, is_weekend, query, received_at) VALUES (?, ?, ?, ?, ?, ?)');
  return {
    /** Synchronous: the row is committed (and synced) when this returns. Returns the row's id. */
    insert(vote: VoteRow): number {
      return Number(insert.run(vote.bot, vote.user, vote.type, vote.isWeekend ? 1 : 0, vote.query, Date.now()).lastInsertRowid);
    },
    close(): void {
      db.close();
    },
  };
}

export { listenSettings } from './http-kit.js';
