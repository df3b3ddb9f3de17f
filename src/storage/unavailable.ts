// Errors that mean "the database cannot be used right now" (unreachable, connection lost, disk full, read-only),
// as opposed to a bug: they are answered 503 SERVICE_UNAVAILABLE (nothing was stored; retry later) and logged as
// warnings, not 500 INTERNAL_ERROR. Matched on the codes Prisma, its driver adapters, pg and better-sqlite3 set.
import { AppError } from '../base/errors.js';

const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
  'DatabaseDoesNotExist',
  'TransactionAlreadyClosed',
]);
const NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);
const SQLITE_CODES = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|BUSY|LOCKED|PROTOCOL|NOTADB)/;
const MESSAGES =
  /Connection terminated|Can't reach database server|Server has closed the connection|Timed out fetching a new connection|timeout exceeded when trying to connect|Query read timeout|Client was closed and is not queryable|database or disk is full|write thread stopped/i;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const e = error as { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown }; originalError?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (PRISMA_CODES.has(code) || NODE_CODES.has(code) || SQLITE_CODES.test(code)) return true;
  // PostgreSQL SQLSTATE: class 08 (connection exception), 57P01–57P03 (shutdown, cannot connect now), 53100 (disk full).
  if (/^08...$/.test(code) || /^57P0[123]$/.test(code) || code === '53100') return true;
  if (typeof e.kind === 'string' && ADAPTER_KINDS.has(e.kind)) return true;
  if (typeof e.message === 'string' && MESSAGES.test(e.message)) return true;
  return [e.cause, e.meta?.driverAdapterError, e.originalError].some((inner) => inner !== error && isDatabaseUnavailable(inner, depth + 1));
}

export function databaseUnavailableError(): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'The database is unavailable right now; nothing was stored. Retry later.');
}
