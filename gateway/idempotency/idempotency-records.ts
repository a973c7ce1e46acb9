import type { Redis } from 'ioredis';
import { redisUnavailable } from '../../shared/errors';
import { IDEMPOTENCY_CLAIM_SECONDS, IDEMPOTENCY_RETENTION_SECONDS } from '../../shared/policy';

/** What Redis holds for one Idempotency-Key of one caller. */
export type IdempotencyRecord =
  /** The first request is running; `claim` tells its own record from a later one's. */
  | { state: 'running'; claim: string; fingerprint: string }
  /** Answered: `response` is the sealed status and body (shared/secrets.ts). */
  | { state: 'done'; fingerprint: string; response: string };

type Running = Extract<IdempotencyRecord, { state: 'running' }>;
type Done = Extract<IdempotencyRecord, { state: 'done' }>;

/** Sets the running record unless one is there; returns what is there. */
const CLAIM = `
local current = redis.call('GET', KEYS[1])
if current then return current end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false`;

/** Replaces the caller's own running record (and only it) with `ARGV[2]`, or deletes it without one. */
const SETTLE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then return redis.call('DEL', KEYS[1]) end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`;

interface IdempotencyCommands {
  idempotencyClaim(key: string, running: string, claimMs: number): Promise<string | null>;
  idempotencySettle(key: string, running: string, settled: string, keepMs: number): Promise<number>;
}

/**
 * The records of requests sent with an Idempotency-Key, in Redis, each in one atomic step: claimed
 * for the first request while it runs (IDEMPOTENCY_CLAIM_SECONDS), then replaced with its answer for
 * IDEMPOTENCY_RETENTION_SECONDS, or released when it has no answer to keep.
 */
export class IdempotencyRecords {
  private readonly commands: IdempotencyCommands;

  constructor(redis: Redis, private readonly keyPrefix: string) {
    redis.defineCommand('idempotencyClaim', { numberOfKeys: 1, lua: CLAIM });
    redis.defineCommand('idempotencySettle', { numberOfKeys: 1, lua: SETTLE });
    this.commands = redis as unknown as IdempotencyCommands;
  }

  /** The Redis key of one caller's record for one Idempotency-Key; both are hashed into `scope`. */
  keyOf(scope: string): string {
    return `${this.keyPrefix}:idempotency:${scope}`;
  }

  /**
   * Claims `key` for a first request: null when it is now claimed, else the record already there.
   * Without Redis nothing is claimed and the request is refused with 503: running it unguarded could
   * run it twice.
   */
  async claim(key: string, running: Running): Promise<IdempotencyRecord | null> {
    let current: string | null;
    try {
      current = await this.commands.idempotencyClaim(key, JSON.stringify(running), IDEMPOTENCY_CLAIM_SECONDS * 1000);
    } catch {
      throw redisUnavailable('requests with an Idempotency-Key cannot be checked for repeats right now; nothing was done, try again shortly');
    }
    return current === null ? null : (JSON.parse(current) as IdempotencyRecord);
  }

  /** Keeps the answer in place of the claim, when the claim is still this request's. */
  async keep(key: string, running: Running, done: Done): Promise<void> {
    await this.commands.idempotencySettle(key, JSON.stringify(running), JSON.stringify(done), IDEMPOTENCY_RETENTION_SECONDS * 1000);
  }

  /** Frees the key for a repeat to run, when the claim is still this request's. */
  async release(key: string, running: Running): Promise<void> {
    await this.commands.idempotencySettle(key, JSON.stringify(running), '', 0);
  }
}
