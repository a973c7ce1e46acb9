import { createHmac } from 'node:crypto';
import { utcDate } from '../store/dates';

/** What the daily keys are derived under, apart from every other use of the server secret. */
const LABEL = 'bds install hash v1';
const DAY_MS = 86_400_000;

/**
 * Distinct installs are counted without storing who they are: each check carries a keyed hash of
 * (customer, install identity or address, user agent) under a key derived from the server secret and
 * the UTC day. The same install hashes alike within a day, so a day's HyperLogLog counts it once, and
 * differently from one day to the next, so stored hashes cannot follow an install across days, and
 * without the secret they cannot be tested against a guessed address.
 */
export class InstallHasher {
  private dayStartMs = 0;
  private dayEndMs = 0;
  private dayKey = Buffer.alloc(0);

  constructor(private readonly secret: Buffer) {}

  /** 128 bits, base64url: ample for counting, short to store. */
  hash(at: Date, customerId: string, identity: string | null, userAgent: string | null): string {
    const ms = at.getTime();
    if (ms < this.dayStartMs || ms >= this.dayEndMs) {
      this.dayStartMs = ms - (ms % DAY_MS);
      this.dayEndMs = this.dayStartMs + DAY_MS;
      this.dayKey = createHmac('sha256', this.secret).update(`${LABEL}\0${utcDate(at)}`).digest();
    }
    // NUL separators: no field can run into the next.
    return createHmac('sha256', this.dayKey)
      .update(`${customerId}\0${identity ?? ''}\0${userAgent ?? ''}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }
}
