import { AccessTokenCache } from './auth/access-token-cache';
import http from 'node:http';
import type Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { JobQueues } from '../shared/queues/job-queues';
import { createGatewayConnection, createSubscriberConnection, waitForReady, whileRedisAnswers } from '../shared/redis/connections';
import { RedisOutageLog } from '../shared/redis/redis-outage-log';
import type { CoreServices } from '../shared/runtime/core-services';
import { createApp } from './app';
import { answerProtocolErrors, PROTOCOL_SERVER_OPTIONS } from './http/protocol-errors';
import { EventRecorder } from '../shared/events/event-recorder';
import { AdminKeyCache } from './auth/admin-key-cache';
import { ApiKeyCache } from './auth/api-key-cache';
import { DownloadCacheLookups } from './releases/cache-lookups';
import { CatalogCache } from './releases/catalog-cache';
import { ReleaseCatalog } from './releases/release-catalog';
import { invalidationChannel, InvalidationBus } from '../shared/cache/invalidation-bus';
import type { GatewayDeps, RouteModule } from './gateway-deps';
import { RateLimiting } from './rate-limits/rate-limiting';
import type { AppState } from './http/context';
import type { Route } from './http/route';
import { routeTable } from './route-table';
import { buildGatewayServices, type GatewayServices } from './gateway-services';
import { webhookSecretKey } from '../shared/runtime/local-secrets';
import { SigningSecrets } from '../shared/webhooks/signing-secrets';
import { WebhookEvents } from '../shared/webhooks/webhook-events';
import { SubscribedEventTypes } from '../shared/webhooks/subscribed-event-types';

export interface RunningGateway {
  server: http.Server;
  port: number;
  /** Every route it serves. */
  routes: readonly Route[];
  /** The Koa application serving them (its router is what registered them). */
  app: Koa<AppState>;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  close(): Promise<void>;
}

/** Serves the app on `port` (0: any free port). */
export async function startGateway(deps: GatewayDeps, port: number, host?: string, modules?: readonly RouteModule<GatewayServices>[]): Promise<RunningGateway> {
  const services = buildGatewayServices(deps);
  const routes = routeTable(deps, services, modules);
  const { app, listener } = createApp(deps, routes, services.audit);
  // Node's own checks of Host and of the head's size answer without the envelope: answerProtocolErrors makes them.
  const server = http.createServer(PROTOCOL_SERVER_OPTIONS);
  server.on('request', answerProtocolErrors(server, listener));
  // Large uploads stream for minutes: no whole-request timeout, but idle sockets are dropped.
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    routes,
    app,
    close: () => closeGracefully(server),
  };
}

function closeGracefully(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    // Keep-alive connections become idle once their in-flight response is sent; close them as they do.
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    server.close(() => {
      clearInterval(sweep);
      resolve();
    });
    server.closeIdleConnections();
  });
}

export interface LaunchedGateway {
  gateway: RunningGateway;
  /** Closes what launchGateway opened (not the core services). */
  close(): Promise<void>;
}

/** Opens the gateway's own Redis connection and queues, then serves on config.port. */
export async function launchGateway(
  config: GatewayDeps['config'],
  logger: GatewayDeps['logger'],
  core: CoreServices,
  redisUrl: string,
  adminKeyHashes: readonly string[],
  port = config.port,
  /** The route modules served (route-table.ts's ROUTE_MODULES unless given). */
  modules?: readonly RouteModule<GatewayServices>[],
): Promise<LaunchedGateway> {
  // Key lookups on their own connection with auto-pipelining: concurrent requests' lookups share one
  // socket write. Queue producers keep a plain connection; cache invalidations arrive on a subscriber.
  const redis = createGatewayConnection(redisUrl, { enableAutoPipelining: true });
  const queueConnection = createGatewayConnection(redisUrl);
  const subscriber = createSubscriberConnection(redisUrl);
  const redisOutage = new RedisOutageLog(logger, 'refusedRequests');
  for (const connection of [redis, queueConnection, subscriber]) redisOutage.watch(connection);
  // Without Redis the gateway still starts: requests that need it get 503 until it is back.
  await Promise.all([waitForReady(redis), waitForReady(queueConnection), waitForReady(subscriber)]).catch(() => undefined);
  const bus = new InvalidationBus(redis, subscriber, invalidationChannel(config.redisPrefix), logger);
  await bus.start();
  const jobs = new JobQueues(queueConnection, config.redisPrefix, logger, redisOutage);
  const keyCache = new ApiKeyCache(redis, core.store, bus, config.redisPrefix, logger);
  const adminKeys = new AdminKeyCache(core.store, bus, logger);
  const accessTokens = new AccessTokenCache(core.store, bus, logger);
  const catalogCache = new CatalogCache(core.store, bus);
  const cacheLookups = new DownloadCacheLookups();
  const releaseCatalog = new ReleaseCatalog(catalogCache, config, cacheLookups.catalog);
  const webhooks = new WebhookEvents(jobs, core.store, new SubscribedEventTypes(core.store, bus, logger), logger);
  const distributionEvents = new EventRecorder(core.store, (batch, store) => webhooks.storeEvents(batch, store));
  const signingSecrets = new SigningSecrets(webhookSecretKey(config.webhooks.secretKeyHex, config.dataDir));
  const rateLimits = config.rateLimits ? new RateLimiting(config.rateLimits, redis, config.redisPrefix, redisOutage) : undefined;
  const stopCountingLookups = core.metrics.countCacheLookups(() => cacheLookups.byCache());
  const closeConnections = async () => {
    stopCountingLookups();
    redisOutage.close();
    await whileRedisAnswers(queueConnection, jobs.close());
    await bus.close();
    redis.disconnect();
    queueConnection.disconnect();
  };
  let gateway: RunningGateway;
  try {
    gateway = await startGateway(
      {
        config, logger, store: core.store, storage: core.storage, hashing: core.hashing, signedAccess: core.signedAccess, redis, redisOutage, jobs, keyCache, adminKeys, catalogCache, releaseCatalog, bus, distributionEvents, webhooks, signingSecrets, adminKeyHashes, rateLimits,
        metrics: core.metrics, cacheLookups, accessTokens, clock: core.clock,
      },
      port,
      config.host,
      modules,
    );
  } catch (error) {
    // A port in use: nothing else of this gateway may outlive it (its connections would report the
    // embedded Redis stopping as an outage, over the real reason).
    await closeConnections();
    throw error;
  }
  logger.info({ host: config.host, port: gateway.port, store: core.store.kind, objectStorage: core.storage.kind }, 'gateway listening');
  return {
    gateway,
    close: async () => {
      await gateway.close();
      // The checks answered last are still gathering: written before the store closes.
      await distributionEvents.close();
      await closeConnections();
    },
  };
}
