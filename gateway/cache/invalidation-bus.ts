import type { Redis } from 'ioredis';
import { randomToken } from '../../shared/ids';
import type { Logger } from '../../shared/logger';

export type CacheTopic = 'key' | 'customer' | 'application' | 'share';
type Listener = (topic: CacheTopic, id: string) => void;
type ResetListener = () => void;

/** On the wire: an invalidation, or a receiver's confirmation that it has applied one. */
type WireMessage = ['invalidate', CacheTopic, string, string] | ['applied', string];

/**
 * How long a change waits for every subscribed gateway to confirm. Only a gateway that is stalled or
 * dying mid-change makes a change wait this long; its caches are cleared if it loses Redis.
 */
export const CONFIRMATION_TIMEOUT_MS = 2_000;

interface PendingConfirmation {
  confirmed: number;
  /** Subscribers that received the message, as PUBLISH counts them; unknown until it answers. */
  receivers: number | undefined;
  done: () => void;
}

/**
 * Invalidations of the gateway's in-process caches, broadcast to every gateway process through Redis
 * pub/sub. The process making a change drops its own entries synchronously, publishes, and waits
 * until every subscriber (itself included) has confirmed that it dropped them too: when the change's
 * response goes out, no gateway can serve the old record. Local caches serve only while the
 * subscription is live: on any disconnect they are cleared and bypassed until it is back.
 */
export class InvalidationBus {
  private readonly listeners = new Set<Listener>();
  private readonly resetListeners = new Set<ResetListener>();
  private readonly pending = new Map<string, PendingConfirmation>();
  /** Prefixes this process's message ids, so it confirms its own messages without a round trip. */
  private readonly origin = randomToken(9);
  private messageCounter = 0;
  private subscribed = false;
  /** Bumped by every invalidation and reconnect: a lookup that straddles one must not fill a cache. */
  private generationCounter = 0;

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly channel: string,
    private readonly logger: Logger,
    private readonly confirmationTimeoutMs = CONFIRMATION_TIMEOUT_MS,
  ) {
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.receive(message);
    });
    subscriber.on('ready', () => void this.subscribe());
    for (const event of ['close', 'end', 'reconnecting']) subscriber.on(event, () => this.lose());
  }

  /** True while invalidations from other processes are guaranteed to arrive. */
  get live(): boolean {
    return this.subscribed;
  }

  get generation(): number {
    return this.generationCounter;
  }

  onInvalidate(listener: Listener): void {
    this.listeners.add(listener);
  }

  /** Called when invalidations may have been missed: everything cached must go. */
  onReset(listener: ResetListener): void {
    this.resetListeners.add(listener);
  }

  async start(): Promise<void> {
    if (this.subscriber.status === 'ready') await this.subscribe();
  }

  /**
   * Drops the entry here at once, tells every other process, and resolves once all of them have
   * confirmed (or the confirmation timeout has passed). Rejects only when Redis refuses the publish.
   */
  async publish(topic: CacheTopic, id: string): Promise<void> {
    this.apply(topic, id);
    const messageId = `${this.origin}.${++this.messageCounter}`;
    const message: WireMessage = ['invalidate', topic, id, messageId];
    // Without our own subscription no confirmation can reach us; the others still apply the change.
    if (!this.subscribed) {
      await this.publisher.publish(this.channel, JSON.stringify(message));
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const confirmed = new Promise<void>((resolve) => {
      const entry: PendingConfirmation = { confirmed: 0, receivers: undefined, done: resolve };
      this.pending.set(messageId, entry);
      timer = setTimeout(() => {
        this.logger.warn({ topic, confirmed: entry.confirmed, receivers: entry.receivers }, 'not every gateway confirmed a cache invalidation in time');
        resolve();
      }, this.confirmationTimeoutMs);
    });
    try {
      const receivers = await this.publisher.publish(this.channel, JSON.stringify(message));
      const entry = this.pending.get(messageId);
      if (entry) {
        entry.receivers = receivers;
        this.settleIfComplete(messageId, entry);
      }
      await confirmed;
    } finally {
      clearTimeout(timer);
      this.pending.delete(messageId);
    }
  }

  async close(): Promise<void> {
    this.lose();
    for (const entry of this.pending.values()) entry.done();
    this.subscriber.disconnect();
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
    let message: WireMessage;
    try {
      message = JSON.parse(raw) as WireMessage;
    } catch {
      this.logger.warn('ignored a malformed cache invalidation');
      return;
    }
    if (message[0] === 'applied') {
      this.confirm(message[1]);
    } else if (message[0] === 'invalidate') {
      const [, topic, id, messageId] = message;
      this.apply(topic, id);
      if (messageId.startsWith(`${this.origin}.`)) this.confirm(messageId);
      else this.publishConfirmation(messageId);
    } else {
      this.logger.warn('ignored a malformed cache invalidation');
    }
  }

  private publishConfirmation(messageId: string): void {
    const message: WireMessage = ['applied', messageId];
    this.publisher.publish(this.channel, JSON.stringify(message)).catch((error: Error) => {
      this.logger.warn({ err: error.message }, 'could not confirm a cache invalidation');
    });
  }

  private confirm(messageId: string): void {
    const entry = this.pending.get(messageId);
    if (!entry) return;
    entry.confirmed += 1;
    this.settleIfComplete(messageId, entry);
  }

  private settleIfComplete(messageId: string, entry: PendingConfirmation): void {
    if (entry.receivers !== undefined && entry.confirmed >= entry.receivers) {
      this.pending.delete(messageId);
      entry.done();
    }
  }

  private apply(topic: CacheTopic, id: string): void {
    this.generationCounter += 1;
    for (const listener of this.listeners) listener(topic, id);
  }
}
