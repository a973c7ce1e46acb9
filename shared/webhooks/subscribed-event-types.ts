import type { CacheTag, InvalidationBus } from '../cache/invalidation-bus';
import type { Logger } from '../logger';
import { IN_PROCESS_CACHE_TTL_MS, WEBHOOK_ENDPOINTS_MAX } from '../policy';
import type { Store } from '../store/store';

/** What every change of a webhook endpoint names on the invalidation bus: the subscriptions as a whole. */
export const WEBHOOK_SUBSCRIPTIONS_TAG: CacheTag = ['webhooks', 'subscriptions'];

interface Known {
  types: ReadonlySet<string>;
  expiresAt: number;
}

/**
 * Which event types some active endpoint subscribes to, known in process so that an event nobody
 * wants queues no job. Endpoint changes go through the invalidation bus (WEBHOOK_SUBSCRIPTIONS_TAG),
 * held in every gateway and worker before they are written, so what is known here is never older
 * than the store. Whenever that cannot be guaranteed (the bus is not live, a change is being written,
 * the store cannot be read) every type counts as wanted: the dispatcher then reads the endpoints
 * itself, as it always does.
 */
export class SubscribedEventTypes {
  private known: Known | undefined;
  /** The store read under way, and the bus generation it started at. */
  private loading: { generation: number; types: Promise<ReadonlySet<string> | undefined> } | undefined;

  constructor(private readonly store: Store, private readonly bus: InvalidationBus, private readonly logger: Logger) {
    bus.onReset(() => this.forget());
    bus.onInvalidate((topic, id) => {
      if (topic === WEBHOOK_SUBSCRIPTIONS_TAG[0] && id === WEBHOOK_SUBSCRIPTIONS_TAG[1]) this.forget();
    });
  }

  /** Whether an event of `type` may have a subscriber: answered in process when known, else after one store read. */
  wanted(type: string): boolean | Promise<boolean> {
    if (!this.bus.live || this.bus.isHeld([WEBHOOK_SUBSCRIPTIONS_TAG])) return true;
    const known = this.known;
    if (known && known.expiresAt > Date.now()) return known.types.has(type);
    return this.load().then((types) => types?.has(type) ?? true);
  }

  /** Joins the read under way only if no change was held or released since it started: it could predate one. */
  private load(): Promise<ReadonlySet<string> | undefined> {
    if (this.loading?.generation === this.bus.generation) return this.loading.types;
    const loading = { generation: this.bus.generation, types: this.read() };
    this.loading = loading;
    void loading.types.finally(() => {
      if (this.loading === loading) this.loading = undefined;
    });
    return loading.types;
  }

  private async read(): Promise<ReadonlySet<string> | undefined> {
    const generation = this.bus.generation;
    let types: Set<string>;
    try {
      // Every endpoint fits in one page: at most WEBHOOK_ENDPOINTS_MAX can be registered.
      const { items } = await this.store.webhooks.listWebhookEndpoints(1, WEBHOOK_ENDPOINTS_MAX);
      types = new Set(items.filter((endpoint) => endpoint.isActive).flatMap((endpoint) => endpoint.events));
    } catch (error) {
      this.logger.warn({ err: error }, 'could not read the webhook subscriptions; events are queued until they can be read');
      return undefined;
    }
    // A change held or released while reading may be missing from what was read: answer with it, keep nothing.
    if (this.bus.live && generation === this.bus.generation && !this.bus.isHeld([WEBHOOK_SUBSCRIPTIONS_TAG])) {
      this.known = { types, expiresAt: Date.now() + IN_PROCESS_CACHE_TTL_MS };
    }
    return types;
  }

  private forget(): void {
    this.known = undefined;
  }
}
