import type Database from 'better-sqlite3';
import type { StoreOptions } from '../options';
import { MIGRATIONS } from './migrations';
import { migration as checkWindows } from './migrations/25-check-windows';

export { FIRST_SCHEMA } from './migrations/01-first-schema';

/**
 * SQLite schema of the embedded store, built by numbered migrations (migrations/, one file each): PRAGMA user_version is the
 * number of the last one applied. Dates are milliseconds since the epoch; string arrays are JSON.
 * `live` marks files that reserve their name and MAIN slot (pending or available); failed files release them.
 * Events carry no per-row "counted" flag: the rollup keeps one position (rollup_state), so an insert
 * touches no index beyond the feed's and a fold rewrites no event.
 */

export const SCHEMA_VERSION = MIGRATIONS.length;
/** The schema version the check windows' migration brings a database to. */
export const CHECK_WINDOWS_SCHEMA_VERSION = MIGRATIONS.indexOf(checkWindows) + 1;

/**
 * Brings the database to SCHEMA_VERSION: the migrations it lacks, in one IMMEDIATE transaction, so
 * that of two processes opening the file together one migrates and the other then finds nothing to
 * do, and a failed migration leaves the database as it was. A database of a later release is refused:
 * this release would not know what its columns mean. `target`: an earlier schema version, to build
 * a database as an earlier release left it (tests of the migrations after it).
 */
export function migrateSchema(db: Database.Database, options: StoreOptions, target = SCHEMA_VERSION): void {
  const migrate = db.transaction(() => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > SCHEMA_VERSION) {
      throw new Error(`the SQLite store is at schema version ${current}, newer than this release's ${SCHEMA_VERSION}`);
    }
    for (let version = current + 1; version <= target; version += 1) MIGRATIONS[version - 1](db, options);
    if (current < target) db.pragma(`user_version = ${target}`);
  });
  migrate.immediate();
}
