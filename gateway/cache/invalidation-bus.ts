import type { Redis } from 'ioredis';
import type { Logger } from '../../shared/logger';

export type CacheTopic = 'key' | 'customer' | 'application' | 'share';
type Listener = (topic: CacheTopic, id: string) => void;
type ResetListener = () => void;

/**
 * Invalidations of the gateway's in-process caches, broadcast to every gateway process through Redis
 * pub/sub. The process making a change drops its own entries synchronously and publishes before it
 * answers, so the change reaches the other processes' sockets before its client can send the next
 * request. Local caches serve only while the subscription is live: on any disconnect they are
 * cleared and bypassed until it is back.
 */
export class InvalidationBus {
  private readonly listeners = new Set<Listener>();
  private readonly resetListeners = new Set<ResetListener>();
  private subscribed = false;
  /** Bumped by every invalidation and reconnect: a lookup that straddles one must not fill a cache. */
  private generationCounter = 0;

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly channel: string,
    private readonly logger: Logger,
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

  /** Drops the entry here at once, then tells every other process. */
  async publish(topic: CacheTopic, id: string): Promise<void> {
    this.apply(topic, id);
    await this.publisher.publish(this.channel, JSON.stringify([topic, id]));
  }

  async close(): Promise<void> {
    this.lose();
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

  private receive(message: string): void {
    try {
      const [topic, id] = JSON.parse(message) as [CacheTopic, string];
      this.apply(topic, id);
    } catch {
      this.logger.warn('ignored a malformed cache invalidation');
    }
  }

  private apply(topic: CacheTopic, id: string): void {
    this.generationCounter += 1;
    for (const listener of this.listeners) listener(topic, id);
  }
}
