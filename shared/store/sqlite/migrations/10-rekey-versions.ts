import type Database from 'better-sqlite3';
import { versionOrderKey } from '../../../releases/version-order';
import type { Migration } from './migration';

/**
 * 10: SemVer versions with a number past 2^53 and a prerelease or build metadata were keyed as
 * free-form (below every version); every stored key is recomputed by the version order of this
 * release, and the ones that differ rewritten.
 */
function rekeyVersions(db: Database.Database): void {
  const versions = db.prepare('SELECT application_id, version, order_key FROM versions').all() as { application_id: string; version: string; order_key: string }[];
  const setOrderKey = db.prepare('UPDATE versions SET order_key = ? WHERE application_id = ? AND version = ?');
  for (const row of versions) {
    const key = versionOrderKey(row.version);
    if (key !== row.order_key) setOrderKey.run(key, row.application_id, row.version);
  }
}

export const migration: Migration = rekeyVersions;
