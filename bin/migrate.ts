/**
 * `npm run migrate`: the store's deliberate deployment step, run once every process of the previous
 * release has stopped. On MongoDB it fills in the fields documents of earlier releases lack, then
 * drops the indexes the schemas no longer declare (starting processes only create missing ones, so
 * a rolling deploy keeps what the old release needs). The embedded SQLite store has nothing to do:
 * it migrates its schema when it opens.
 */
import { defaultChannel } from '../shared/releases/channels';
import { migrateDatabase } from '../shared/store/mongo/index-migration';
import { configOrExit, exitOnFailure } from '../shared/runtime/start-up';

const { config, logger } = configOrExit();

async function main(): Promise<void> {
  if (!config.mongodbUri) {
    logger.info('the embedded SQLite store has nothing to migrate');
    return;
  }
  const { backfilled, dropped } = await migrateDatabase(config.mongodbUri, { defaultChannel: defaultChannel(config.channels) });
  logger.info(backfilled, 'filled in the release fields of earlier documents');
  for (const [collection, indexes] of Object.entries(dropped)) {
    if (indexes.length > 0) logger.info({ collection, indexes }, 'dropped obsolete indexes');
  }
  logger.info('MongoDB indexes match the schemas');
}

main().catch(exitOnFailure(logger));
