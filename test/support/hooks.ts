import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { startRedisServer, RedisServerProcess } from '../../shared/redis/redis-server-process';

/**
 * Root hooks: one real redis-server for the whole run, on a free port, data in a temporary directory.
 * Each test app uses its own key prefix, so queues and caches never cross between tests.
 */
let redis: RedisServerProcess | undefined;
let redisDir: string | undefined;

export function testRedisUrl(): string {
  if (!redis) throw new Error('redis-server is not running (root hooks not loaded?)');
  return redis.url;
}

export function testRedisServer(): RedisServerProcess {
  if (!redis) throw new Error('redis-server is not running (root hooks not loaded?)');
  return redis;
}

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(30_000);
    redisDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-test-redis-'));
    redis = await startRedisServer({ dir: redisDir, persistent: false });
  },
  async afterAll() {
    await redis?.stop();
    if (redisDir) fs.rmSync(redisDir, { recursive: true, force: true });
  },
};
