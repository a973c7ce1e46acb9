/**
 * Rollup speed of the SQLite store on its own, without a service whose worker would race it:
 * inserts N uncounted download events into a fresh store, folds them with rollupEvents(2000) (the
 * worker's batch) until nothing is left, then reads the same rows back in pages of 1000 for scale.
 * Arguments: <dataDir> <count>. Prints one JSON line.
 */
import { createStore } from '../shared/store/create-store';
import type { ActivityPosition } from '../shared/store/store';
import { insertDownloadEvents } from './synthetic-events';

const ROLLUP_BATCH = 2_000;
const READ_PAGE = 1_000;

async function main(): Promise<void> {
  const [dataDir, countArg] = process.argv.slice(2);
  const count = Number(countArg);
  const store = await createStore({ dataDir });

  let started = performance.now();
  await insertDownloadEvents(store, { applicationId: 'bench-rollup', count, days: 30, versions: 10, now: Date.now() });
  const insertMs = performance.now() - started;

  started = performance.now();
  let folded = 0;
  for (let batch = await store.activity.rollupEvents(ROLLUP_BATCH); batch > 0; batch = await store.activity.rollupEvents(ROLLUP_BATCH)) folded += batch;
  const foldMs = performance.now() - started;

  started = performance.now();
  let read = 0;
  let after: ActivityPosition | undefined;
  for (;;) {
    const page = await store.activity.listEvents({ after, limit: READ_PAGE });
    if (page.length === 0) break;
    read += page.length;
    const last = page[page.length - 1];
    after = { timestamp: last.timestamp, eventId: last.eventId };
  }
  const readMs = performance.now() - started;

  await store.close();
  process.stdout.write(`${JSON.stringify({ count, insertMs, folded, foldMs, read, readMs })}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
