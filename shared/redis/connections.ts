import IORedis, { Redis, RedisOptions } from 'ioredis';

/**
 * Connection for BullMQ workers and queue producers inside workers: commands wait for a reconnect
 * instead of failing, as BullMQ requires (maxRetriesPerRequest: null).
 */
export function createWorkerConnection(url: string): Redis {
  return new IORedis(url, { maxRetriesPerRequest: null, enableReadyCheck: true });
}

/**
 * Connection for the gateway: fail fast. With the offline queue off, a command sent while Redis is
 * down fails at once, and the request that needed it gets 503 instead of hanging.
 */
export function createGatewayConnection(url: string, overrides: RedisOptions = {}): Redis {
  return new IORedis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2_000,
    commandTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    ...overrides,
  });
}

/** Connection in subscriber mode (pub/sub): reconnects forever; subscribers re-subscribe on 'ready'. */
export function createSubscriberConnection(url: string): Redis {
  return new IORedis(url, {
    maxRetriesPerRequest: null,
    autoResubscribe: false,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
}

/** Resolves once the connection is ready, or rejects after `timeoutMs`. */
export function waitForReady(redis: Redis, timeoutMs = 10_000): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      reject(new Error('Redis did not become ready in time'));
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    redis.once('ready', onReady);
  });
}

/**
 * Waits for `work` while `redis` stays up. Closing queues and workers waits on Redis; when Redis goes
 * away meanwhile (a terminal's interrupt reaches the embedded redis-server along with us), that wait
 * can only run out the shutdown deadline, so it is abandoned: what was left is retried elsewhere
 * once its lock lapses.
 */
export async function whileRedisAnswers(redis: Redis, work: Promise<unknown>): Promise<void> {
  let onLost: (() => void) | undefined;
  const lost = new Promise<void>((resolve) => {
    if (redis.status !== 'ready') return resolve();
    onLost = resolve;
    for (const event of ['close', 'end', 'reconnecting']) redis.once(event, resolve);
  });
  try {
    await Promise.race([work, lost]);
  } finally {
    if (onLost) for (const event of ['close', 'end', 'reconnecting']) redis.off(event, onLost);
  }
}
