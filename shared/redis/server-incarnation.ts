import type { Redis } from 'ioredis';

const RUN_ID = /^run_id:([0-9a-f]+)/m;

/**
 * The run id of the Redis server a connection talks to now. It changes whenever the server restarts
 * or a replica takes over, and either can come back without its latest acknowledged writes (an
 * append-only file synced once a second, a snapshot, replication lag): a value cached under another
 * run id may predate a change that was since written and lost. Unknown while (re)connecting.
 */
export class ServerIncarnation {
  private runId: string | undefined;
  private connection = 0;

  constructor(private readonly redis: Redis) {
    redis.on('ready', () => void this.learn());
    for (const event of ['close', 'end', 'reconnecting']) {
      redis.on(event, () => {
        this.connection += 1;
        this.runId = undefined;
      });
    }
    if (redis.status === 'ready') void this.learn();
  }

  get current(): string | undefined {
    return this.runId;
  }

  private async learn(): Promise<void> {
    const connection = this.connection;
    try {
      const runId = RUN_ID.exec(await this.redis.info('server'))?.[1];
      if (connection === this.connection) this.runId = runId;
    } catch {
      // The connection went away again; its next 'ready' asks again.
    }
  }
}
