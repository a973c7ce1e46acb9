import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Everything the bench starts is registered here and undone on every way out: the normal end, a
 * thrown error, Ctrl-C or SIGTERM. A synchronous last resort on 'exit' kills any child still alive
 * and removes the temporary directories, for exits that skip the asynchronous path.
 */
type Stop = () => Promise<void> | void;

const pending = new Set<Stop>();
const tempDirs = new Set<string>();

/** Registers `stop` for cleanup; the returned function runs it now, once, and unregisters it. */
export function managed(stop: Stop): () => Promise<void> {
  let done: Promise<void> | undefined;
  const once = () => {
    pending.delete(once);
    done ??= Promise.resolve().then(stop);
    return done;
  };
  pending.add(once);
  return once;
}

export interface TempDir {
  path: string;
  remove(): Promise<void>;
}

export function makeTempDir(prefix: string): TempDir {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.add(dir);
  return {
    path: dir,
    remove: managed(() => {
      fs.rmSync(dir, { recursive: true, force: true });
      tempDirs.delete(dir);
    }),
  };
}

/** Stops everything still registered, newest first (a service before the Redis it uses). */
export async function cleanUp(): Promise<void> {
  for (const stop of [...pending].reverse()) {
    try {
      await stop();
    } catch (error) {
      process.stderr.write(`cleanup: ${(error as Error).message}\n`);
    }
  }
}

/** Runs `main`, always cleans up, and exits with a status telling whether it succeeded. */
export function runWithCleanup(main: () => Promise<void>): void {
  // The first way out wins: an interrupted scenario fails afterwards, and must not exit mid-cleanup.
  let exiting: Promise<void> | undefined;
  const exit = (code: number, error?: unknown) => {
    if (exiting) return;
    if (error !== undefined) process.stderr.write(`\nbench failed: ${(error as Error)?.stack ?? error}\n`);
    exiting = cleanUp().then(() => process.exit(code));
  };
  process.once('SIGINT', () => exit(130, new Error('interrupted by SIGINT')));
  process.once('SIGTERM', () => exit(143, new Error('interrupted by SIGTERM')));
  process.once('uncaughtException', (error) => exit(1, error));
  process.once('unhandledRejection', (error) => exit(1, error));
  process.once('exit', lastResort);
  main().then(() => exit(0), (error) => exit(1, error));
}

function lastResort(): void {
  for (const pid of liveChildPids()) {
    // Children started detached lead their own group; others (redis-server) are killed alone.
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // Not a group leader, or gone already.
      }
    }
  }
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
}

function liveChildPids(): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) === process.pid && state !== 'Z') found.push(Number(entry));
    } catch {
      // The process ended while being read.
    }
  }
  return found;
}
