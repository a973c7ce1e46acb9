import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface S3rverProcess {
  /** http://127.0.0.1:<port>, for path-style requests. */
  endpoint: string;
  stop(): Promise<void>;
}

/** The one key pair s3rver knows. It checks the key id but not V4 signatures: a test server only. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

const READY_TIMEOUT_MS = 15_000;

/** The S3_* variables that point the service at `bucket` on a test server. */
export function s3Environment(server: S3rverProcess, bucket: string): Record<string, string> {
  return {
    S3_ENDPOINT: server.endpoint,
    S3_BUCKET: bucket,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  };
}

/**
 * Starts s3rver as a child process on a free port, with its data in a fresh temporary directory;
 * `bucket` is created at start with its configuration files (a CORS rule's XML, for browsers).
 */
export async function startS3rver(bucket?: { name: string; configFiles: string[] }): Promise<S3rverProcess> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 's3rver-'));
  const cli = require.resolve('s3rver/bin/s3rver.js');
  const configure = bucket ? ['--configure-bucket', bucket.name, ...bucket.configFiles] : [];
  const child = spawn(process.execPath, [cli, '-a', '127.0.0.1', '-p', '0', '-d', directory, '--silent', ...configure], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    await rm(directory, { recursive: true, force: true });
  };
  try {
    const port = await listeningPort(child);
    return { endpoint: `http://127.0.0.1:${port}`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** s3rver prints "S3rver listening on <address>:<port>" once it accepts requests, even when silent. */
function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      child.stdout?.removeListener('data', onStdout);
      child.removeListener('exit', onExit);
      outcome();
    };
    const onStdout = (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /S3rver listening on \S+:(\d+)/.exec(stdout);
      if (match) finish(() => resolve(Number(match[1])));
    };
    const onExit = (code: number | null) => {
      finish(() => reject(new Error(`s3rver exited with code ${code} before listening: ${stderr.trim()}`)));
    };
    const timer = setTimeout(() => {
      finish(() => reject(new Error(`s3rver did not start within ${READY_TIMEOUT_MS} ms: ${stderr.trim()}`)));
    }, READY_TIMEOUT_MS);
    child.stdout?.on('data', onStdout);
    // Both pipes keep draining, so a chatty server never blocks on a full pipe.
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout?.resume();
    child.on('exit', onExit);
  });
}
