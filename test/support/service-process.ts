import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { findFreePort } from '../../shared/net';
import { testRedisUrl } from './hooks';
import { HttpClient } from './http-client';
import { NodeProcess } from './node-process';
import { sendRaw } from './raw-http';
import { freshDatabase } from './test-app';

const ENTRY = 'bin/standalone.js';
const LISTENING = /Listening on /;
const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 15_000;
/** A process that no longer answers /healthz is given this long to exit before it is killed. */
const EXIT_GRACE_MS = 5_000;

/**
 * The service as it runs in production, `npm start`'s entry point, in a process of its own: gateway
 * and workers on the test redis-server (own key prefix), SQLite (or MongoDB when MONGODB_URI is set,
 * a database of its own) and files under a fresh DATA_DIR. A request that kills it kills only it:
 * the test sees the exit and what the process printed, and can start it again on the same data.
 */
export class ServiceProcess {
  readonly adminKey = `adm_${randomBytes(24).toString('base64url')}`;
  /** Metrics are served, as every route the table can hold is. */
  readonly metricsToken = `metrics_${randomBytes(24).toString('base64url')}`;
  readonly http: HttpClient;
  /** What each process that exited unasked printed, newest last. */
  readonly crashes: string[] = [];
  private child: NodeProcess | undefined;

  private constructor(readonly port: number, readonly dataDir: string, private readonly env: Record<string, string>) {
    this.http = new HttpClient(`http://127.0.0.1:${port}`, this.adminKey);
  }

  static async start(extraEnv: Record<string, string> = {}): Promise<ServiceProcess> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-service-'));
    const port = await findFreePort();
    const service = new ServiceProcess(port, dataDir, {
      PORT: String(port),
      DATA_DIR: dataDir,
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: `t${randomBytes(6).toString('hex')}`,
      LOG_LEVEL: 'warn',
      ...(process.env.MONGODB_URI ? { MONGODB_URI: freshDatabase(process.env.MONGODB_URI), WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'), REPOSITORY_KEY_SECRET: randomBytes(32).toString('hex') } : {}),
      ...extraEnv,
    });
    await service.launch();
    return service;
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  get running(): boolean {
    return this.child?.running ?? false;
  }

  /** What the current (or last) process printed. */
  output(): string {
    return this.child?.output() ?? '';
  }

  /**
   * True when the service answers GET /healthz with 200 within `timeoutMs`. Otherwise the process
   * has died or hangs: it is given a moment to exit (then killed), what it printed is kept in
   * `crashes`, a new one is started on the same data, and the answer is false.
   */
  async answersHealth(timeoutMs: number): Promise<boolean> {
    const outcome = await sendRaw(this.port, { method: 'GET', target: '/healthz', headers: [['Host', 'localhost'], ['Connection', 'close']] }, timeoutMs);
    if (outcome.kind === 'answered' && outcome.response.status === 200) return true;
    const child = this.child;
    if (child) await child.exitWithin(EXIT_GRACE_MS).catch(() => child.kill());
    this.crashes.push(`${outcome.kind === 'answered' ? `/healthz answered ${outcome.response.status}` : `/healthz: ${outcome.kind}`}\n${this.output()}`);
    await this.launch();
    return false;
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child?.running) {
      child.signal('SIGTERM');
      await child.exitWithin(STOP_TIMEOUT_MS).catch(() => child.kill());
    }
    await child?.kill();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }

  private async launch(): Promise<void> {
    this.child = new NodeProcess(ENTRY, { ...this.env, ADMIN_API_KEYS: this.adminKey, METRICS_TOKEN: this.metricsToken });
    await this.child.waitForOutput(LISTENING, START_TIMEOUT_MS);
  }
}
