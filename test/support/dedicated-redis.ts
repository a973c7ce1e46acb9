import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RedisServerProcess, startRedisServer } from '../../shared/redis/redis-server-process';

export interface DedicatedRedis extends RedisServerProcess {
  /** Its working directory, to start a server again on the same port. */
  dir: string;
  /** Starts the server again on the same port and directory (with AOF on, it reloads its data). */
  restart(): Promise<void>;
  /** Kills the server (SIGKILL): no shutdown, nothing flushed. */
  kill(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open but nothing answers. */
  pause(): void;
  /** Lets a paused server run again (SIGCONT). */
  resume(): void;
  /** Stops the server (if still running) and removes its directory. */
  dispose(): Promise<void>;
}

export interface DedicatedRedisOptions {
  /** Append-only file on (appendonly yes), so a restart keeps the data, as in production. */
  persistent?: boolean;
}

/** A redis-server of a test's own, for tests that stop it; the shared one of the root hooks stays up. */
export async function startDedicatedRedis(options: DedicatedRedisOptions = {}): Promise<DedicatedRedis> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-test-redis-own-'));
  const persistent = options.persistent ?? false;
  let server = await startRedisServer({ dir, persistent });
  const { port, url } = server;
  const signal = (name: NodeJS.Signals) => {
    const pid = redisServerPid(port);
    if (pid !== undefined) process.kill(pid, name);
  };
  return {
    url,
    port,
    dir,
    stop: () => server.stop(),
    restart: async () => {
      server = await startRedisServer({ dir, persistent, port });
    },
    kill: async () => {
      signal('SIGKILL');
      await server.stop();
    },
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
    dispose: async () => {
      signal('SIGCONT');
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The pid of the redis-server listening on `port`; redis-server titles itself "redis-server <host>:<port>". */
function redisServerPid(port: number): number | undefined {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (title.startsWith('redis-server ') && new RegExp(`:${port}\\b`).test(title)) return Number(entry);
    } catch {
      // The process ended while being read.
    }
  }
  return undefined;
}
