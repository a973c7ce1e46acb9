import type { Redis } from 'ioredis';
import { redisUnavailable } from '../errors';
import { randomToken } from '../ids';
import type { Logger } from '../logger';

/** What changes can name: the kinds of record processes keep in memory. */
const CACHE_TOPICS = ['key', 'adminKey', 'customer', 'application', 'share', 'webhooks', 'token'] as const;
export type CacheTopic = (typeof CACHE_TOPICS)[number];
/** What a cached entry depends on, and what a change names: a topic and an id. */
export type CacheTag = [CacheTopic, string];
type Listener = (topic: CacheTopic, id: string) => void;
type ResetListener = () => void;

/**
 * On the wire: a change about to be written (drop and stop filling), the same change written or
 * abandoned (fill again), or a receiver's confirmation that it holds a change.
 */
type WireMessage = ['hold', CacheTag[], string] | ['release', CacheTag[], string] | ['applied', string];

/**
 * How long a change waits for every subscribed gateway to confirm its hold. Only a gateway that is
 * stalled or dying mid-change makes a change wait this long; its caches are cleared if it loses Redis.
 */
export const CONFIRMATION_TIMEOUT_MS = 2_000;

/**
 * How long a gateway keeps a change held when its release never comes (the changing gateway lost
 * Redis or died after its store write). Longer than any store write takes.
 */
export const CHANGE_HOLD_MS = 30_000;

/** The one channel of a deployment (gateways and workers sharing a Redis key prefix). */
export const invalidationChannel = (redisPrefix: string): string => `${redisPrefix}:cache-invalidations`;

interface PendingConfirmation {
  confirmed: number;
  /** Subscribers that received the message, as PUBLISH counts them; unknown until it answers. */
  receivers: number | undefined;
  done: () => void;
}

const refusal = () => redisUnavailable('the change cannot reach every gateway right now; nothing was changed, try again shortly');

/**
 * Changes to what the gateways cache in process (keys, customers, catalog records, share links),
 * made safe across every gateway process through Redis pub/sub. A change is held before it is
 * written: every subscribed gateway drops its entries and stops filling them, and confirms; only then
 * is the store written, and the change released. When the hold cannot be broadcast the change is
 * refused with 503 before anything is written; when the release cannot, the holds expire on their own
 * (CHANGE_HOLD_MS), and until then the gateways read the store. Local caches serve only while the
 * subscription is live: on any disconnect they are cleared and bypassed until it is back.
 */
export class InvalidationBus {
  private readonly listeners = new Set<Listener>();
  private readonly resetListeners = new Set<ResetListener>();
  private readonly pending = new Map<string, PendingConfirmation>();
  /** Changes in progress per tag: change id → when the hold lapses without a release. */
  private readonly holds = new Map<string, Map<string, number>>();
  /** Prefixes this process's change ids, so it confirms its own messages without a round trip. */
  private readonly origin = randomToken(9);
  private changeCounter = 0;
  private subscribed = false;
  /** Bumped by every hold, release and reconnect: a lookup that straddles one must not fill a cache. */
  private generationCounter = 0;

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly channel: string,
    private readonly logger: Logger,
    private readonly confirmationTimeoutMs = CONFIRMATION_TIMEOUT_MS,
    private readonly holdMs = CHANGE_HOLD_MS,
  ) {
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.receive(message);
    });
    subscriber.on('ready', () => void this.subscribe());
    for (const event of ['close', 'end', 'reconnecting']) subscriber.on(event, () => this.lose());
  }

  /** True while changes from other processes are guaranteed to arrive. */
  get live(): boolean {
    return this.subscribed;
  }

  get generation(): number {
    return this.generationCounter;
  }

  onInvalidate(listener: Listener): void {
    this.listeners.add(listener);
  }

  /** Called when changes may have been missed: everything cached must go. */
  onReset(listener: ResetListener): void {
    this.resetListeners.add(listener);
  }

  async start(): Promise<void> {
    if (this.subscriber.status === 'ready') await this.subscribe();
  }

  /**
   * Writes a change of what `tags` name so that no gateway serves the old value once this resolves:
   * holds the tags in every gateway (confirmed), runs `write`, then releases them. Refuses with 503,
   * without calling `write`, when the hold cannot be broadcast.
   */
  async change<T>(tags: CacheTag[], write: () => Promise<T>): Promise<T> {
    const changeId = `${this.origin}.${++this.changeCounter}`;
    await this.hold(tags, changeId);
    try {
      return await write();
    } finally {
      await this.release(tags, changeId);
    }
  }

  /** True while a change of any of `tags` is in progress: a value read now may predate it. */
  isHeld(tags: readonly CacheTag[]): boolean {
    if (this.holds.size === 0) return false;
    const now = Date.now();
    return tags.some((tag) => {
      const changes = this.holds.get(tagKey(tag));
      if (!changes) return false;
      for (const [changeId, lapsesAt] of changes) if (lapsesAt <= now) changes.delete(changeId);
      if (changes.size === 0) this.holds.delete(tagKey(tag));
      return changes.size > 0;
    });
  }

  async close(): Promise<void> {
    this.lose();
    for (const entry of this.pending.values()) entry.done();
    this.subscriber.disconnect();
  }

  /** Holds the tags here and in every subscribed gateway; throws the 503 refusal when it cannot. */
  private async hold(tags: CacheTag[], changeId: string): Promise<void> {
    // Without our own subscription no confirmation can reach us: nobody's hold could be confirmed.
    if (!this.subscribed) throw refusal();
    this.applyHold(tags, changeId);
    let timer: NodeJS.Timeout | undefined;
    const confirmed = new Promise<void>((resolve) => {
      const entry: PendingConfirmation = { confirmed: 0, receivers: undefined, done: resolve };
      this.pending.set(changeId, entry);
      timer = setTimeout(() => {
        this.logger.warn({ tags: tags.map(([topic]) => topic), confirmed: entry.confirmed, receivers: entry.receivers }, 'not every gateway confirmed a cache hold in time');
        resolve();
      }, this.confirmationTimeoutMs);
    });
    try {
      const receivers = await this.send(['hold', tags, changeId]);
      const entry = this.pending.get(changeId);
      if (entry) {
        entry.receivers = receivers;
        this.settleIfComplete(changeId, entry);
      }
      await confirmed;
    } catch {
      this.applyRelease(tags, changeId);
      throw refusal();
    } finally {
      clearTimeout(timer);
      this.pending.delete(changeId);
    }
  }

  /** Releases the tags here and tells the others; a lost release only keeps them held until it lapses. */
  private async release(tags: CacheTag[], changeId: string): Promise<void> {
    this.applyRelease(tags, changeId);
    try {
      await this.send(['release', tags, changeId]);
    } catch {
      this.logger.warn({ tags: tags.map(([topic]) => topic) }, 'could not release a change to the other gateways; their holds lapse on their own');
    }
  }

  private send(message: WireMessage): Promise<number> {
    return this.publisher.publish(this.channel, JSON.stringify(message));
  }

  private async subscribe(): Promise<void> {
    try {
      await this.subscriber.subscribe(this.channel);
      this.generationCounter += 1;
      this.subscribed = true;
    } catch (error) {
      this.logger.warn({ err: error }, 'could not subscribe to cache invalidations; in-process caches stay off');
    }
  }

  private lose(): void {
    if (!this.subscribed) return;
    this.subscribed = false;
    this.generationCounter += 1;
    for (const listener of this.resetListeners) listener();
  }

  private receive(raw: string): void {
    const message = parseMessage(raw);
    if (!message) {
      this.logger.warn('ignored a malformed cache invalidation');
      return;
    }
    if (message[0] === 'applied') {
      this.confirm(message[1]);
      return;
    }
    const [kind, tags, changeId] = message;
    // This process applied its own change before sending it.
    const own = changeId.startsWith(`${this.origin}.`);
    if (kind === 'release') {
      if (!own) this.applyRelease(tags, changeId);
    } else if (own) {
      this.confirm(changeId);
    } else {
      this.applyHold(tags, changeId);
      this.publishConfirmation(changeId);
    }
  }

  private publishConfirmation(changeId: string): void {
    this.send(['applied', changeId]).catch((error: Error) => {
      this.logger.warn({ err: error.message }, 'could not confirm a cache hold');
    });
  }

  private confirm(changeId: string): void {
    const entry = this.pending.get(changeId);
    if (!entry) return;
    entry.confirmed += 1;
    this.settleIfComplete(changeId, entry);
  }

  private settleIfComplete(changeId: string, entry: PendingConfirmation): void {
    if (entry.receivers !== undefined && entry.confirmed >= entry.receivers) {
      this.pending.delete(changeId);
      entry.done();
    }
  }

  private applyHold(tags: CacheTag[], changeId: string): void {
    const lapsesAt = Date.now() + this.holdMs;
    for (const tag of tags) {
      const key = tagKey(tag);
      const changes = this.holds.get(key) ?? new Map<string, number>();
      changes.set(changeId, lapsesAt);
      this.holds.set(key, changes);
    }
    this.invalidate(tags);
  }

  /** Also drops the tags' entries: a value read before the write may have been cached by a lookup that began before the hold. */
  private applyRelease(tags: CacheTag[], changeId: string): void {
    for (const tag of tags) {
      const changes = this.holds.get(tagKey(tag));
      changes?.delete(changeId);
      if (changes?.size === 0) this.holds.delete(tagKey(tag));
    }
    this.invalidate(tags);
  }

  private invalidate(tags: CacheTag[]): void {
    this.generationCounter += 1;
    for (const [topic, id] of tags) for (const listener of this.listeners) listener(topic, id);
  }
}

const TOPICS = new Set<string>(CACHE_TOPICS);

const tagKey = ([topic, id]: CacheTag): string => `${topic}:${id}`;

function parseMessage(raw: string): WireMessage | null {
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!Array.isArray(message)) return null;
  const [kind, tags, changeId] = message as unknown[];
  if (kind === 'applied') return typeof tags === 'string' ? ['applied', tags] : null;
  if ((kind !== 'hold' && kind !== 'release') || typeof changeId !== 'string' || !Array.isArray(tags)) return null;
  const wellFormed = tags.every((tag: unknown) =>
    Array.isArray(tag) && tag.length === 2 && TOPICS.has(tag[0]) && typeof tag[1] === 'string');
  return wellFormed ? [kind, tags as CacheTag[], changeId] : null;
}
