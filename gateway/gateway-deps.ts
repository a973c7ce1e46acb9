import type { Redis } from 'ioredis';
import type { Config } from '../shared/config';
import type { Hashing } from '../shared/hashing';
import type { Logger } from '../shared/logger';
import type { ProcessMetrics } from '../shared/metrics/process-metrics';
import type { RedisOutageLog } from '../shared/redis/redis-outage-log';
import type { JobQueues } from '../shared/queues/job-queues';
import type { ObjectStorage } from '../shared/storage/object-storage';
import type { SignedObjectAccess } from '../shared/storage/signed-object-access';
import type { Store } from '../shared/store/store';
import type { EventRecorder } from '../shared/events/event-recorder';
import type { AdminKeyCache } from './auth/admin-key-cache';
import type { ApiKeyCache } from './auth/api-key-cache';
import type { AccessTokenCache } from './auth/access-token-cache';
import type { Clock } from '../shared/clock';
import type { DownloadCacheLookups } from './releases/cache-lookups';
import type { CatalogCache } from './releases/catalog-cache';
import type { ReleaseCatalog } from './releases/release-catalog';
import type { InvalidationBus } from '../shared/cache/invalidation-bus';
import type { SigningSecrets } from '../shared/webhooks/signing-secrets';
import type { WebhookEvents } from '../shared/webhooks/webhook-events';
import type { RateLimiting } from './rate-limits/rate-limiting';
import type { Route } from './http/route';

/** Everything the gateway's routes use; built once per process by gateway-process.ts. */
export interface GatewayDeps {
  config: Readonly<Config>;
  logger: Logger;
  store: Store;
  storage: ObjectStorage;
  /** Where file digests are computed: the process's hashing threads. */
  hashing: Hashing;
  /** Present when the object store's signed URLs point at the gateway (the embedded store): signed-object-routes.ts answers them. */
  signedAccess?: SignedObjectAccess;
  /** Fail-fast connection: a command while Redis is down errors at once. */
  redis: Redis;
  /** Counts what a Redis outage refuses, and logs its start and end once each. */
  redisOutage: RedisOutageLog;
  jobs: JobQueues;
  keyCache: ApiKeyCache;
  /** Customers' access tokens, cached in process. */
  accessTokens: AccessTokenCache;
  /** What access tokens' validity and periods are read against. */
  clock: Clock;
  /** Scoped admin keys, cached in process. */
  adminKeys: AdminKeyCache;
  /** Application, version and file records of the download checks, cached in process. */
  catalogCache: CatalogCache;
  /** Which versions and files each customer may have, on the catalog cache: downloads, the releases listing and update feeds ask it. */
  releaseCatalog: ReleaseCatalog;
  /** Broadcasts every change that in-process caches must drop. */
  bus: InvalidationBus;
  /** One per process, so concurrent requests' events are written together. */
  distributionEvents: EventRecorder;
  /** Announces webhook events; download.recorded through `distributionEvents`. */
  webhooks: WebhookEvents;
  /** Seals endpoints' signing secrets before they are stored. */
  signingSecrets: SigningSecrets;
  adminKeyHashes: readonly string[];
  /** Per key and per share link, shared through Redis; absent with RATE_LIMITS=off. */
  rateLimits?: RateLimiting;
  /** This process's metrics (shared with its workers, if any). */
  metrics: ProcessMetrics;
  /** Hits and misses of the download path's in-process caches, counted by the caches' users. */
  cacheLookups: DownloadCacheLookups;
}

/**
 * A module of the route table: its routes, declared over the process's deps and the services it names
 * (`Services`, by their names in gateway-services.ts, which builds them once and hands them over); it
 * builds none, and it names another room's service by type only.
 */
export type RouteModule<Services = object> = (deps: GatewayDeps, services: Services) => readonly Route[];
