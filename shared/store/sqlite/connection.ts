import Database from 'better-sqlite3';

/**
 * What every connection to the store's file uses. NORMAL under WAL: a committed write survives a
 * crash of the process; an OS crash may lose the last commits. Locks held by another connection are
 * waited for, not refused.
 */
export function applyConnectionSettings(db: Database.Database): void {
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
}

/** A background thread's own connection; checkpoints are the checkpoint thread's alone. */
export function openThreadConnection(file: string): Database.Database {
  const db = new Database(file);
  applyConnectionSettings(db);
  db.pragma('wal_autocheckpoint = 0');
  return db;
}
