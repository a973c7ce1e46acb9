import { openConnection } from './connection';
import { bindModels } from './models';

/**
 * The deliberate deployment step that drops the indexes the schemas no longer declare (and creates
 * any missing). A starting gateway or worker only creates missing indexes, so while an old release
 * runs beside a new one every index either of them relies on stays; run this once no process of an
 * older release is left. Returns the dropped index names by collection.
 */
export async function dropObsoleteIndexes(uri: string): Promise<Record<string, string[]>> {
  const connection = await openConnection(uri);
  try {
    const dropped: Record<string, string[]> = {};
    for (const model of Object.values(bindModels(connection))) {
      dropped[model.collection.collectionName] = await model.syncIndexes();
    }
    return dropped;
  } finally {
    await connection.close();
  }
}
