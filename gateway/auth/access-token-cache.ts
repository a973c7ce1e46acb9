import { BoundedMap } from '../../shared/cache/bounded-map';
import type { CacheTag, InvalidationBus } from '../../shared/cache/invalidation-bus';
import type { Logger } from '../../shared/logger';
import { keyFromSecret } from '../../shared/secrets';
import type { AccessToken } from '../../shared/store/models';
import type { Store } from '../../shared/store/store';
import { LocalCache } from '../../shared/cache/local-cache';
import { KeyUseRecorder } from './key-use-recorder';

/** Past this many tokens the derived client keys start over (a token then costs one derivation more). */
const MAX_CLIENT_KEYS = 10_000;

/**
 * Access-token lookups: in process first (dropped on every gateway through the invalidation bus when a
 * token changes), then the store. A change (PATCH, revocation) is written through `change`, which holds
 * the token's entries on every gateway before the store is written, so a revoked token is refused on
 * every gateway's next request, or the change is refused with 503 and nothing written. Requests with a
 * customer key never come here.
 */
export class AccessTokenCache {
  private readonly tokens: LocalCache<AccessToken>;
  private readonly clientKeys = new BoundedMap<string, Buffer>(MAX_CLIENT_KEYS);
  private readonly uses: KeyUseRecorder;

  constructor(private readonly store: Store, private readonly bus: InvalidationBus, logger: Logger) {
    this.tokens = new LocalCache(bus);
    this.uses = new KeyUseRecorder((tokenId, at) => store.accessTokens.touchAccessToken(tokenId, at), logger);
  }

  /** The token from the in-process cache, without waiting; undefined when not there. */
  cached(tokenHash: string): AccessToken | undefined {
    return this.tokens.get(tokenHash);
  }

  /** The stored token (revoked ones included: the caller refuses them), or null when unknown. */
  resolve(tokenHash: string): Promise<AccessToken | null> {
    // Tagged with its customer too: a customer's deletion (which revokes its tokens) drops it on every gateway.
    return this.tokens.getOrLoad(tokenHash, () => this.store.accessTokens.findAccessTokenByHash(tokenHash), (token) => [tokenTag(tokenHash), ['customer', token.customerId]]);
  }

  /**
   * The key of the keyed hashes of a token's client addresses, derived from the token itself: what is
   * stored cannot be matched to an address by anyone who does not hold the token.
   */
  clientKey(tokenHash: string, presented: string): Buffer {
    let key = this.clientKeys.get(tokenHash);
    if (!key) {
      key = keyFromSecret(presented, 'access token client addresses');
      this.clientKeys.set(tokenHash, key);
    }
    return key;
  }

  recordUse(tokenId: string): void {
    this.uses.record(tokenId);
  }

  /** Writes a change of the token (limits, revocation) once every gateway holds its entry; 503 and nothing written when they cannot. */
  change<T>(tokenHash: string, write: () => Promise<T>): Promise<T> {
    return this.bus.change([tokenTag(tokenHash)], write);
  }
}

const tokenTag = (tokenHash: string): CacheTag => ['token', tokenHash];
