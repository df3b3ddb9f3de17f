import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.js';

describe('isDatabaseUnavailable', () => {
  it('recognises outages from Prisma, its adapters, pg, Node and SQLite, also when wrapped', () => {
    for (const error of [
      Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), { code: 'P1001' }),
      Object.assign(new Error('x'), { code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'DatabaseNotReachable' } } } }),
      Object.assign(new Error('x'), { cause: { kind: 'ConnectionClosed' } }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Query read timeout'),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
      Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('x'), { code: '08006' }),
      { originalError: Object.assign(new Error('x'), { code: 'SQLITE_READONLY' }) },
    ]) {
      expect(isDatabaseUnavailable(error), String((error as Error).message ?? JSON.stringify(error))).toBe(true);
    }
  });

  it('leaves bugs and bad input alone', () => {
    for (const error of [
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      Object.assign(new Error('Unique constraint failed'), { code: 'P2002' }),
      Object.assign(new Error('UNIQUE constraint failed: Vote.id'), { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' }),
      Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' }),
      null,
      'a string',
    ]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
    }
  });
});
