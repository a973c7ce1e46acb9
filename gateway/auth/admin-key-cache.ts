import type { Logger } from '../../shared/logger';
import type { Scope } from '../../shared/scopes';
import type { AdminKey } from '../../shared/store/models';
import type { Store } from '../../shared/store/store';
import type { CacheTag, InvalidationBus } from '../../shared/cache/invalidation-bus';
import { LocalCache } from '../../shared/cache/local-cache';
import { KeyUseRecorder } from './key-use-recorder';

/** What a scoped admin key may do, as authentication needs it. */
export interface AdminGrant {
  keyId: string;
  scopes: readonly Scope[];
  applicationIds: readonly string[] | null;
  /** Milliseconds since the epoch; null when the key does not expire. */
  expiresAt: number | null;
}

/**
 * Scoped admin keys by hash: the in-process cache, else the store. There is no Redis tier: admin
 * requests are few, and so authentication of admin keys needs no Redis. A revocation is held on the
 * invalidation bus before the store is written (InvalidationBus.change), so it is refused with 503
 * and nothing written when Redis cannot carry it, or in force on every gateway's next request; a
 * gateway that is not subscribed serves nothing from this cache.
 */
export class AdminKeyCache {
  private readonly local: LocalCache<AdminGrant>;
  private readonly uses: KeyUseRecorder;

  constructor(
    private readonly store: Store,
    private readonly bus: InvalidationBus,
    logger: Logger,
  ) {
    this.local = new LocalCache(bus);
    this.uses = new KeyUseRecorder((keyId, at) => store.accounts.touchAdminKey(keyId, at), logger);
  }

  /** The key from the in-process cache, without waiting; undefined when not there. */
  cached(keyHash: string): AdminGrant | undefined {
    return this.local.get(keyHash);
  }

  /** The key, or null when it is unknown or revoked. */
  async resolve(keyHash: string): Promise<AdminGrant | null> {
    const generation = this.bus.generation;
    const key = await this.store.accounts.findAdminKeyByHash(keyHash);
    if (!key || key.revokedAt) return null;
    const grant = grantOf(key);
    this.local.set(keyHash, grant, generation, [tagOf(key.keyId)]);
    return grant;
  }

  /** Records an admitted request's use of the key, coalesced (KeyUseRecorder). */
  recordUse(keyId: string): void {
    this.uses.record(keyId);
  }

  /** Writes a revocation (see the class comment); 503 and nothing written when it cannot be made safely. */
  revoke<T>(keyId: string, write: () => Promise<T>): Promise<T> {
    return this.bus.change([tagOf(keyId)], write);
  }
}

const tagOf = (keyId: string): CacheTag => ['adminKey', keyId];

function grantOf(key: AdminKey): AdminGrant {
  return {
    keyId: key.keyId,
    scopes: Object.freeze([...key.scopes]),
    applicationIds: key.applicationIds ? Object.freeze([...key.applicationIds]) : null,
    expiresAt: key.expiresAt ? key.expiresAt.getTime() : null,
  };
}
