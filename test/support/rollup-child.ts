/**
 * A worker stand-in for crash tests: opens the store named by the environment and folds events in
 * small batches forever, printing each batch, until it is killed.
 */
import { createStore } from '../../shared/store/create-store';

async function main(): Promise<void> {
  const store = await createStore({ mongodbUri: process.env.MONGODB_URI, dataDir: process.env.DATA_DIR as string });
  const batch = Number(process.env.ROLLUP_BATCH ?? '50');
  for (;;) {
    const folded = await store.activity.rollupEvents(batch);
    process.stdout.write(`folded ${folded}\n`);
    if (folded === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
