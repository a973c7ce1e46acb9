import { benchEntry, NodeChild } from './children';
import { makeTempDir } from './cleanup';
import type { LoadTarget } from './load';

/** A baseline server in its own process, as the service runs in its own, for as long as one comparison needs it. */
export interface BareServer {
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
}

async function startBare(entry: string, args: string[]): Promise<BareServer> {
  const child = new NodeChild(benchEntry(entry), args, process.env);
  const [, port] = await child.waitFor(/listening (\d+)/, 15_000);
  return { baseUrl: `http://127.0.0.1:${port}`, pid: child.pid, stop: child.stop };
}

/** The bare Koa JSON route of the HTTP figures (bare-koa.ts). */
export async function startBareKoa(): Promise<{ target: LoadTarget; stop(): Promise<void> }> {
  const bare = await startBare('bare-koa', []);
  return { target: { url: `${bare.baseUrl}/v1/ping`, expectStatus: 200, pid: bare.pid }, stop: bare.stop };
}

/** The bare node:http server of the bytes-path figures, over the files of `dir` (bare-files.ts). */
export function startBareFiles(dir: string): Promise<BareServer> {
  return startBare('bare-files', [dir]);
}

/** A temporary directory with a bare file server over it, both removed afterwards. */
export async function withBareFiles<T>(prefix: string, use: (dir: string, bare: BareServer) => Promise<T>): Promise<T> {
  const dir = makeTempDir(prefix);
  try {
    const bare = await startBareFiles(dir.path);
    try {
      return await use(dir.path, bare);
    } finally {
      await bare.stop();
    }
  } finally {
    await dir.remove();
  }
}
