import { createHmac, hash as sha } from 'node:crypto';
import { INSTALL_HASH_MEMO_ENTRIES } from '../policy';
import { utcDate } from '../store/dates';
import { DAY_MS } from '../durations';

/** What the daily keys are derived under, apart from every other use of the server secret. */
const LABEL = 'bds install hash v1';
/** SHA-256's block and digest sizes (RFC 2104's B and L). */
const BLOCK = 64;
const DIGEST = 32;
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** By character code: a base64url character with its low four bits cleared. */
const TRUNCATED_CHARACTER: string[] = [];
for (let i = 0; i < BASE64URL.length; i += 1) TRUNCATED_CHARACTER[BASE64URL.charCodeAt(i)] = BASE64URL[i & 0x30];

/**
 * Distinct installs are counted without storing who they are: each check carries a keyed hash of
 * (customer, install identity or address, user agent) under a key derived from the server secret and
 * the UTC day. The same install hashes alike within a day, so a day's HyperLogLog counts it once, and
 * differently from one day to the next, so stored hashes cannot follow an install across days, and
 * without the secret they cannot be tested against a guessed address.
 *
 * The hash is HMAC-SHA-256 (RFC 2104) truncated to 128 bits, computed with two one-shot SHA-256
 * calls over buffers that already hold the day key's inner and outer pads, the digests taken as
 * strings: every check hashes, and an Hmac object per check (a stream, keyed each time, its digest
 * a newly allocated Buffer) cost more than twice as much. An install checks many times a day, so the
 * day's hashes are remembered (at most INSTALL_HASH_MEMO_ENTRIES, forgotten at midnight with the
 * key): a repeated check costs three map lookups instead of the two digests. They are remembered by
 * customer, then identity, then user agent, not by the joined message: joining made and hashed a
 * new string on every check, which cost more than the lookups.
 */
export class InstallHasher {
  private dayStartMs = 0;
  private dayEndMs = 0;
  /** (day key XOR ipad) followed by the message; grown when a message does not fit. */
  private inner = Buffer.alloc(0);
  /** (day key XOR opad) followed by the inner digest. */
  private readonly outer = Buffer.alloc(BLOCK + DIGEST);
  /** This day's hashes by customer, identity and user agent; cleared with the day key, or when full. */
  private readonly memo = new Map<string, Map<string, Map<string, string>>>();
  private remembered = 0;

  constructor(private readonly secret: Buffer) {}

  /** 128 bits, base64url: ample for counting, short to store. */
  hash(at: Date, customerId: string, identity: string | null, userAgent: string | null): string {
    const ms = at.getTime();
    if (ms < this.dayStartMs || ms >= this.dayEndMs) this.startDay(ms, at);
    const id = identity ?? '';
    const agent = userAgent ?? '';
    const known = this.memo.get(customerId)?.get(id)?.get(agent);
    if (known !== undefined) return known;
    // NUL separators: no field can run into the next.
    const hashed = this.digest(`${customerId}\0${id}\0${agent}`);
    this.remember(customerId, id, agent, hashed);
    return hashed;
  }

  private remember(customerId: string, identity: string, userAgent: string, hashed: string): void {
    if (this.remembered >= INSTALL_HASH_MEMO_ENTRIES) this.forget();
    let byIdentity = this.memo.get(customerId);
    if (!byIdentity) this.memo.set(customerId, (byIdentity = new Map()));
    let byAgent = byIdentity.get(identity);
    if (!byAgent) byIdentity.set(identity, (byAgent = new Map()));
    byAgent.set(userAgent, hashed);
    this.remembered += 1;
  }

  private forget(): void {
    this.memo.clear();
    this.remembered = 0;
  }

  private digest(message: string): string {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (this.inner.length < BLOCK + message.length * 3) this.growInner(BLOCK + message.length * 3);
    const length = this.inner.write(message, BLOCK, 'utf8');
    this.outer.write(sha('sha256', this.inner.subarray(0, BLOCK + length), 'binary'), BLOCK, 'latin1');
    const digest = sha('sha256', this.outer, 'base64url');
    // The first 16 bytes in base64url: 21 whole characters, and the 22nd holding the 16th byte's last
    // two bits (the 17th byte's four bits cleared).
    return digest.slice(0, 21) + TRUNCATED_CHARACTER[digest.charCodeAt(21)];
  }

  private startDay(ms: number, at: Date): void {
    this.forget();
    this.dayStartMs = ms - (ms % DAY_MS);
    this.dayEndMs = this.dayStartMs + DAY_MS;
    // 32 bytes: shorter than a block, so used as it is, zero-padded (RFC 2104).
    const dayKey = createHmac('sha256', this.secret).update(`${LABEL}\0${utcDate(at)}`).digest();
    this.growInner(Math.max(this.inner.length, BLOCK + 1024));
    for (let i = 0; i < BLOCK; i += 1) {
      const keyByte = i < dayKey.length ? dayKey[i] : 0;
      this.inner[i] = keyByte ^ 0x36;
      this.outer[i] = keyByte ^ 0x5c;
    }
  }

  private growInner(size: number): void {
    const grown = Buffer.alloc(size);
    this.inner.copy(grown, 0, 0, Math.min(this.inner.length, BLOCK));
    this.inner = grown;
  }
}
