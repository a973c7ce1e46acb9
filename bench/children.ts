import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { managed } from './cleanup';

/** A compiled bench entry (`load-generator`, `bare-koa`...) next to this file in dist/bench. */
export const benchEntry = (name: string): string => path.join(__dirname, `${name}.js`);

const STOP_GRACE_MS = 10_000;

/**
 * A long-lived node child in its own process group (so stopping it takes anything it started),
 * its output kept for diagnostics and for waiting on a start-up line.
 */
export class NodeChild {
  output = '';
  stdout = '';
  /** The exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;
  private readonly waiters = new Set<() => void>();
  readonly stop: () => Promise<void>;

  constructor(script: string, args: string[], env: NodeJS.ProcessEnv, nodeOptions: readonly string[] = []) {
    this.child = spawn(process.execPath, [...nodeOptions, script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.exited = once(this.child, 'exit').then(([code]) => code as number | null);
    const collect = (chunk: Buffer) => {
      this.output += chunk.toString();
      this.notify();
    };
    this.child.stdout?.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString();
      collect(chunk);
    });
    this.child.stderr?.on('data', collect);
    this.child.once('exit', () => this.notify());
    this.stop = managed(() => this.terminate());
  }

  get pid(): number {
    return this.child.pid as number;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The first match of `pattern` in the output; fails when the child exits first or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`no ${pattern} within ${timeoutMs} ms:\n${this.output.slice(-3000)}`)), timeoutMs);
      const check = () => {
        const match = pattern.exec(this.output);
        if (match) finish(null, match);
        else if (!this.running) finish(new Error(`exited before printing ${pattern}:\n${this.output.slice(-3000)}`));
      };
      const finish = (error: Error | null, match?: RegExpMatchArray) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        if (error) reject(error);
        else resolve(match as RegExpMatchArray);
      };
      this.waiters.add(check);
      check();
    });
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** SIGTERM to the group (a graceful shutdown), SIGKILL when it takes too long. */
  private async terminate(): Promise<void> {
    if (!this.running) return;
    signalGroup(this.pid, 'SIGTERM');
    const force = setTimeout(() => signalGroup(this.pid, 'SIGKILL'), STOP_GRACE_MS);
    await this.exited;
    clearTimeout(force);
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

/** Runs a bench entry to completion and parses the JSON it prints as its last line. */
export async function runJsonChild<T>(name: string, args: string[], timeoutMs: number): Promise<T> {
  const child = new NodeChild(benchEntry(name), args, process.env);
  const timer = setTimeout(() => void child.stop(), timeoutMs);
  try {
    const [code] = (await once(child['child'], 'exit')) as [number | null];
    if (code !== 0) throw new Error(`${name} exited with ${code}:\n${child.output.slice(-3000)}`);
    const lines = child.stdout.trim().split('\n');
    return JSON.parse(lines[lines.length - 1]) as T;
  } finally {
    clearTimeout(timer);
    await child.stop();
  }
}
