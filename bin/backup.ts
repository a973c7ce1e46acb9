/**
 * `npm run backup -- <dir>`: backs up the embedded default's DATA_DIR (SQLite store, objects, secret
 * files) into a new directory while the service runs. `npm run restore -- <dir>` puts it back into an
 * empty DATA_DIR. MongoDB and S3 are backed up with their own tools (docs/production.md).
 */
import { backupDataDir, restoreDataDir } from '../shared/runtime/data-dir-backup';
import { configOrExit } from '../shared/runtime/start-up';

const { config } = configOrExit();
const [command, dir] = process.argv.slice(2);

async function main(): Promise<void> {
  if (command !== 'backup' && command !== 'restore' || !dir) {
    throw new Error('usage: npm run backup -- <new directory>   |   npm run restore -- <backup directory> (into an empty DATA_DIR)');
  }
  if (config.mongodbUri || config.s3) {
    throw new Error('this backs up the embedded store and objects of DATA_DIR; with MONGODB_URI or S3_* use mongodump and the bucket\'s versioning or replication');
  }
  const started = Date.now();
  const summary = command === 'backup' ? await backupDataDir(config.dataDir, dir) : restoreDataDir(dir, config.dataDir);
  const what = command === 'backup' ? `backed up ${config.dataDir} into ${dir}` : `restored ${dir} into ${config.dataDir}`;
  process.stdout.write(`${what}: store ${summary.storeBytes} bytes, ${summary.objects} objects (${summary.objectBytes} bytes), in ${Date.now() - started} ms\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${command ?? 'backup'} failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
