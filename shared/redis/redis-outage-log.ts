import { shuttingDown } from '../runtime/shutdown';
import type { Redis } from 'ioredis';
import type { Logger } from '../logger';

/** How often, during an outage, the process checks whether Redis answers again. */
export const OUTAGE_PROBE_INTERVAL_MS = 1_000;

/**
 * One process's Redis outages, as the log tells them: the first sign of one (a connection error, an
 * operation that failed for want of Redis) logs one warn line; what fails while it lasts is counted,
 * not logged; once every watched connection is ready and answers a PING, one warn line gives the
 * outage's length and the count. An outage is expected (clients get 503, jobs wait), so it is never an
 * error line, and a reconnect attempt every few hundred milliseconds is no news.
 */
export class RedisOutageLog {
  private readonly connections: Redis[] = [];
  private since: number | undefined;
  private count = 0;
  /** What this outage changed in how the process serves, each logged once. */
  private readonly degradations = new Set<string>();
  private closed = false;

  /** `countName` names what `affected()` counts, in the end-of-outage line. */
  constructor(private readonly logger: Logger, private readonly countName: string) {}

  /** Takes over `connection`'s error events: they mark an outage instead of each logging a line. */
  watch(connection: Redis): void {
    this.connections.push(connection);
    connection.on('error', (error: Error) => this.notice(error));
  }

  /** True from the first sign of an outage until Redis answers again. */
  get ongoing(): boolean {
    return this.since !== undefined;
  }

  /** An operation failed because Redis is unreachable: counted, and an outage if none was known. */
  affected(error?: unknown): void {
    this.notice(error);
    this.count += 1;
  }

  /**
   * Whether Redis being unreachable explains a Redis client's error event (a BullMQ worker's or
   * queue's): then it belongs to the outage (notice or affected), else it is a failure of its own.
   */
  explains(error: Error): boolean {
    return this.ongoing || isConnectionError(error) || this.connections.some((connection) => connection.status !== 'ready');
  }

  /**
   * Redis being unreachable changes how the process serves (`what`: rate limits not enforced, say): a
   * sign of an outage, and one warn line saying what changed, the first time in each outage.
   */
  degraded(what: string, error?: unknown): void {
    this.notice(error);
    if (this.closed || this.degradations.has(what)) return;
    this.degradations.add(what);
    this.logger.warn(what);
  }

  /** A sign that Redis is unreachable, counted as nothing; starts an outage if none was known. */
  notice(error?: unknown): void {
    if (this.since !== undefined || this.closed) return;
    this.since = Date.now();
    this.count = 0;
    // Stopping: Redis going away with the process (Ctrl-C reaches the embedded redis-server too) is expected.
    if (shuttingDown()) return;
    this.logger.warn({ err: error instanceof Error ? error.message : undefined }, 'redis is unreachable');
    void this.awaitRecovery();
  }

  /** Stops watching (shutdown): disconnecting is not an outage. */
  close(): void {
    this.closed = true;
  }

  private async awaitRecovery(): Promise<void> {
    while (!this.closed && !(await this.answers())) {
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_PROBE_INTERVAL_MS).unref());
    }
    if (this.closed || this.since === undefined) return;
    this.logger.warn({ downForMs: Date.now() - this.since, [this.countName]: this.count }, 'redis is reachable again');
    this.since = undefined;
    this.degradations.clear();
  }

  private async answers(): Promise<boolean> {
    if (!this.connections.every((connection) => connection.status === 'ready')) return false;
    try {
      await this.connections[0].ping();
      return true;
    } catch {
      return false;
    }
  }
}

/** What ioredis and BullMQ raise when the connection, not the command, failed. */
const CONNECTION_FAILURE = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|Connection is closed|Stream isn't writeable|Command timed out|MaxRetriesPerRequest/i;

export function isConnectionError(error: Error): boolean {
  return CONNECTION_FAILURE.test(`${error.name} ${error.message} ${(error as NodeJS.ErrnoException).code ?? ''}`);
}
