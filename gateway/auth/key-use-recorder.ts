import type { Logger } from '../../shared/logger';
import { BoundedMap } from '../../shared/cache/bounded-map';
import { KEY_USE_RESOLUTION_MS } from '../../shared/policy';

/** Past this many keys the memory of recent writes starts over (a key then costs one write more). */
const MAX_TRACKED_KEYS = 100_000;

/**
 * Records that keys were used without a store write per request: a key's lastUsedAt is kept to
 * KEY_USE_RESOLUTION_MS, so each process writes it at most once per key in that time, in the
 * background. A write that fails is logged and the request goes on.
 */
export class KeyUseRecorder {
  private readonly lastRecorded = new BoundedMap<string, number>(MAX_TRACKED_KEYS);

  constructor(
    private readonly write: (keyId: string, at: Date) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  record(keyId: string): void {
    const now = Date.now();
    if (now - (this.lastRecorded.get(keyId) ?? 0) < KEY_USE_RESOLUTION_MS) return;
    this.lastRecorded.set(keyId, now);
    this.write(keyId, new Date(now)).catch((error) => this.logger.warn({ err: error, keyId }, 'could not record key use'));
  }
}
