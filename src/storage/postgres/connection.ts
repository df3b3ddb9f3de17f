// The PostgreSQL connection pool, as the main thread, the write thread and the delivery thread each open it.
import pg from 'pg';

/**
 * keepAlive finds connections a network cut left half-open; a server that does not answer a connection attempt
 * within 10 s is reported as unavailable (503) instead of holding the request. An idle client that loses its server
 * must not crash the process; the next query reconnects.
 */
export function openPgPool(databaseUrl: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max, keepAlive: true, connectionTimeoutMillis: 10_000 });
  pool.on('error', () => {});
  return pool;
}

/** "db.example:5432/vote_relay": the server for the operator's log, never a user or password. */
export function serverOf(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    // libpq also takes the host and port as query parameters (a Unix socket folder, say).
    const host = url.hostname || url.searchParams.get('host') || 'localhost';
    const port = url.port || url.searchParams.get('port') || '5432';
    const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || '(default database)';
    return `${host}:${port}/${database}`;
  } catch {
    return '(address not shown: DATABASE_URL is not a URL)';
  }
}
