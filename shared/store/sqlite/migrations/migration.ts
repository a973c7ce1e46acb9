import type Database from 'better-sqlite3';
import type { StoreOptions } from '../../options';

/** One step of the schema: it brings a database from one user_version to the next, inside migrateSchema's transaction. */
export type Migration = (db: Database.Database, options: StoreOptions) => void;
