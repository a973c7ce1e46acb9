import { newEventId } from '../shared/ids';
import type { DistributionEvent } from '../shared/store/models';
import type { Store } from '../shared/store/store';

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 1_000;

export interface EventSpread {
  applicationId: string;
  count: number;
  /** Events are spaced evenly over this many days before `now`... */
  days: number;
  /** ...and dealt round-robin over this many versions. */
  versions: number;
  now: number;
}

/** Not-yet-counted download events, as the gateway would have recorded them, inserted in batches. */
export async function insertDownloadEvents(store: Store, spread: EventSpread): Promise<void> {
  for (let start = 0; start < spread.count; start += BATCH) {
    const batch: DistributionEvent[] = [];
    for (let i = start; i < Math.min(spread.count, start + BATCH); i += 1) {
      const at = new Date(spread.now - Math.floor(((i + 0.5) / spread.count) * spread.days * DAY_MS));
      const version = `1.${i % spread.versions}.0`;
      batch.push({
        eventId: newEventId(at),
        type: 'download',
        applicationId: spread.applicationId,
        version,
        fileId: `file-${version}`,
        customerId: 'bench-customer',
        clientIp: '127.0.0.1',
        userAgent: 'bench',
        platform: 'any',
        arch: 'any',
        timestamp: at,
      });
    }
    await store.activity.insertEvents(batch);
  }
}
