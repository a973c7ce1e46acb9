import type { StoreOptions } from '../options';
import { openConnection } from './connection';
import { bindModels } from './models';
import { backfillReleaseFields, type ReleaseBackfill } from './release-backfill';

export interface MigrationReport {
  backfilled: ReleaseBackfill;
  /** Dropped index names by collection. */
  dropped: Record<string, string[]>;
}

/**
 * The deliberate deployment step, run once no process of an older release is left: fills in the
 * fields documents of earlier releases lack (release-backfill.ts), then drops the indexes the schemas
 * no longer declare (and creates any missing). A starting gateway or worker only creates missing
 * indexes, so while an old release runs beside a new one every index either of them relies on stays.
 * The backfill comes first: the indexes that replace dropped ones may rely on the filled-in fields.
 */
export async function migrateDatabase(uri: string, options: StoreOptions): Promise<MigrationReport> {
  const connection = await openConnection(uri);
  try {
    const models = bindModels(connection);
    const backfilled = await backfillReleaseFields(models, options);
    const dropped: Record<string, string[]> = {};
    for (const model of Object.values(models)) {
      dropped[model.collection.collectionName] = await model.syncIndexes();
    }
    return { backfilled, dropped };
  } finally {
    await connection.close();
  }
}
