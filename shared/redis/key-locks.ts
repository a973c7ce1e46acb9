import type { Redis } from 'ioredis';
import { redisUnavailable } from '../errors';
import { randomToken } from '../ids';

/** Deletes the lock only while it is still the holder's own (a lock that expired and was taken again is left). */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

interface KeyLockCommands {
  keyLockRelease(key: string, token: string): Promise<number>;
}

const FIRST_RETRY_MS = 20;
const LONGEST_RETRY_MS = 500;

/**
 * Named locks in Redis shared by every process (gateways and workers): `hold` runs its work while it
 * alone holds the name, a lease that expires after `leaseSeconds` should its process die. Waits up to
 * `waitMs` for a name another holds, then refuses with a 503 (Redis unavailable) error.
 */
export class KeyLocks {
  private readonly commands: KeyLockCommands;

  constructor(private readonly redis: Redis, private readonly prefix: string, private readonly leaseSeconds: number, private readonly waitMs: number) {
    redis.defineCommand('keyLockRelease', { numberOfKeys: 1, lua: RELEASE });
    this.commands = redis as unknown as KeyLockCommands;
  }

  async hold<T>(name: string, work: () => Promise<T>): Promise<T> {
    const key = `${this.prefix}:lock:${name}`;
    const token = randomToken(16);
    await this.acquire(key, token, name);
    try {
      return await work();
    } finally {
      // Expiry frees a lock whose release Redis refused.
      await this.commands.keyLockRelease(key, token).catch(() => undefined);
    }
  }

  private async acquire(key: string, token: string, name: string): Promise<void> {
    const giveUpAt = Date.now() + this.waitMs;
    for (let pause = FIRST_RETRY_MS; ; pause = Math.min(pause * 2, LONGEST_RETRY_MS)) {
      let taken: string | null;
      try {
        taken = await this.redis.set(key, token, 'EX', this.leaseSeconds, 'NX');
      } catch {
        throw redisUnavailable(`could not lock ${name}; try again shortly`);
      }
      if (taken === 'OK') return;
      if (Date.now() + pause > giveUpAt) throw redisUnavailable(`${name} stayed locked by another process; try again shortly`);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
