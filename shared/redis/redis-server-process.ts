import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { findFreePort } from '../net';

export interface RedisServerProcess {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface RedisServerOptions {
  /** Working directory for the append-only file. */
  dir: string;
  /** Keep data across restarts (AOF). Tests turn it off. */
  persistent: boolean;
  port?: number;
}

/**
 * Starts a redis-server child bound to 127.0.0.1, configured as BullMQ needs it (noeviction).
 * Used by the embedded default when REDIS_URL is unset, and by the tests.
 */
export async function startRedisServer(options: RedisServerOptions): Promise<RedisServerProcess> {
  fs.mkdirSync(options.dir, { recursive: true });
  const port = options.port ?? (await findFreePort());
  const args = [
    '--port', String(port),
    '--bind', '127.0.0.1',
    '--dir', options.dir,
    '--appendonly', options.persistent ? 'yes' : 'no',
    '--save', '',
    '--maxmemory-policy', 'noeviction',
    '--daemonize', 'no',
    '--protected-mode', 'yes',
  ];
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  await waitUntilReady(child);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () => stopChild(child),
  };
}

function waitUntilReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`redis-server did not start in time: ${output.slice(-500)}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        cleanup();
        resolve();
      }
    };
    const onExit = (code: number | null) => fail(new Error(`redis-server exited with ${code}: ${output.slice(-500)}`));
    const fail = (error: Error) => {
      cleanup();
      child.kill('SIGKILL');
      reject(error);
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', fail);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', fail);
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
