import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** dist/ of this build: compiled tests run from dist/test/support. */
export const DIST_DIR = path.resolve(__dirname, '..', '..');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * A compiled entry point (`bin/standalone.js`...) run as a child with exactly the given environment
 * (plus PATH and HOME), its output collected. In its own process group, so a test can signal the
 * group as a terminal would.
 */
export class NodeProcess {
  stdout = '';
  stderr = '';
  readonly exited: Promise<Exit>;
  private readonly child: ChildProcess;
  private readonly listeners = new Set<() => void>();

  constructor(entry: string, env: Record<string, string>, args: string[] = []) {
    this.child = spawn(process.execPath, [path.join(DIST_DIR, entry), ...args], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.notify();
        resolve({ code, signal });
      });
    });
    this.child.stdout?.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString();
      this.notify();
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
      this.notify();
    });
  }

  get pid(): number {
    return this.child.pid as number;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the first match of `pattern` in stdout; fails on exit or after `timeoutMs`. */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(this.stdout);
        if (match) finish(() => resolve(match));
        else if (!this.running) finish(() => reject(new Error(`exited before printing ${pattern}:\n${this.output()}`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${this.output()}`))), timeoutMs);
      const finish = (outcome: () => void) => {
        clearTimeout(timer);
        this.listeners.delete(check);
        outcome();
      };
      this.listeners.add(check);
      check();
    });
  }

  /** The exit, or a failure when the process is still running after `timeoutMs`. */
  async exitWithin(timeoutMs: number): Promise<Exit> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`still running ${timeoutMs} ms later:\n${this.output()}`)), timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Signals the whole process group, as a terminal does on Ctrl-C. */
  signalGroup(signal: NodeJS.Signals): void {
    process.kill(-this.pid, signal);
  }

  /** Cleanup: kills the process group if anything of it is still running. */
  async kill(): Promise<void> {
    try {
      process.kill(-this.pid, 'SIGKILL');
    } catch {
      // The group is gone already.
    }
    if (this.running) await this.exited;
  }

  output(): string {
    return `--- stdout ---\n${this.stdout.slice(-4000)}\n--- stderr ---\n${this.stderr.slice(-4000)}`;
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** Pids of the live children of `pid` whose command name is `name` (Linux /proc). */
export function childPids(pid: number, name: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces, so split after its closing parenthesis.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) === pid && comm === name && state !== 'Z') found.push(Number(entry));
    } catch {
      // The process ended while being read.
    }
  }
  return found;
}

/** Whether a process with this pid is alive (zombies count as gone). */
export function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] !== 'Z';
  } catch {
    return false;
  }
}
