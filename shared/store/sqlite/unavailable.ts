import { DependencyUnavailableError } from '../../errors';

/**
 * SQLite result codes meaning the database file cannot serve right now, not that the operation is
 * wrong; extended codes (SQLITE_IOERR_WRITE, SQLITE_BUSY_SNAPSHOT, ...) count with their primary one.
 * - SQLITE_BUSY: another connection held the lock beyond busy_timeout (connection.ts);
 * - SQLITE_CANTOPEN: the file, its directory or its WAL cannot be opened;
 * - SQLITE_IOERR: the disk failed a read or a write;
 * - SQLITE_FULL: the disk is full;
 * - SQLITE_READONLY: the file can no longer be written (permissions changed, file moved or replaced);
 * - SQLITE_PROTOCOL: a WAL lock race lost again and again.
 * Corruption (SQLITE_CORRUPT, SQLITE_NOTADB) is not among them: retrying does not heal it, so it stays
 * an internal error.
 */
const UNAVAILABLE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_CANTOPEN', 'SQLITE_IOERR', 'SQLITE_FULL', 'SQLITE_READONLY', 'SQLITE_PROTOCOL']);

/**
 * `error`, or DependencyUnavailableError('database') wrapping it when the file could not serve or the
 * connection was already closed (a request still running while the process shuts down).
 */
export function translateUnavailable(error: unknown, connectionClosed = false): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const primary = typeof code === 'string' ? /^SQLITE_[A-Z]+/.exec(code)?.[0] : undefined;
  const unavailable = connectionClosed || (primary !== undefined && UNAVAILABLE_CODES.has(primary));
  return unavailable ? new DependencyUnavailableError('database', error) : error;
}
