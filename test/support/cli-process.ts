import { ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIST_DIR, NodeProcess } from './node-process';

/** The built `bds` binary, as package.json's `bin` names it. */
export const CLI_ENTRY = path.join('cli', 'main.js');

/** What a child process printed and its exit code, once it has closed its output. */
export function ranToEnd(child: ChildProcessByStdio<Writable | null, Readable, Readable>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The one JSON document a command prints with --json. */
export function jsonOf<T = Record<string, unknown>>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`not one JSON document (exit ${result.code}):\n${result.stdout}\n--- stderr ---\n${result.stderr}`);
  }
}

/** The objects a streaming command prints with --json, one a line. */
export function eventsOf(result: Pick<CliResult, 'stdout'>): Record<string, unknown>[] {
  return result.stdout.split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The error object a failing command prints on stderr with --json. */
export function errorOf(result: CliResult): Record<string, unknown> {
  const line = result.stderr.trim().split('\n').pop() ?? '';
  try {
    return (JSON.parse(line) as { error: Record<string, unknown> }).error;
  } catch {
    throw new Error(`no JSON error (exit ${result.code}):\n${result.stderr}`);
  }
}

/**
 * A user of the CLI: a home directory of its own (profiles, resume records) and the environment
 * it runs `bds` with. Each command is the built binary in a child process.
 */
export class CliUser {
  readonly home = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-cli-home-'));

  constructor(private readonly baseEnv: Record<string, string> = {}) {}

  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: this.home,
      XDG_CONFIG_HOME: path.join(this.home, 'config'),
      XDG_STATE_HOME: path.join(this.home, 'state'),
      ...this.baseEnv,
      ...extra,
    };
  }

  /** Runs `bds args...` to its end; `input` is piped to stdin (stdin is not a terminal either way). */
  run(args: string[], options: { env?: Record<string, string>; input?: string; cwd?: string } = {}): Promise<CliResult> {
    const child = spawn(process.execPath, [path.join(DIST_DIR, CLI_ENTRY), ...args], {
      env: this.env(options.env), cwd: options.cwd ?? this.home, stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end(options.input ?? '');
    return ranToEnd(child);
  }

  /** `bds args...` left running (in its own process group), for commands a test interrupts. */
  start(args: string[], env: Record<string, string> = {}): NodeProcess {
    return new NodeProcess(CLI_ENTRY, this.env(env), args);
  }

  remove(): void {
    fs.rmSync(this.home, { recursive: true, force: true });
  }
}
