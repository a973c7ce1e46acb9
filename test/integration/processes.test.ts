import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { findFreePort } from '../../shared/net';
import { ADMIN_KEY_HASH_FILE, loadSigningKey } from '../../shared/runtime/local-secrets';
import { LocalStorage } from '../../shared/storage/local/local-storage';
import { UrlSigner } from '../../shared/storage/local/url-signer';
import { startDedicatedRedis } from '../support/dedicated-redis';
import { testRedisUrl } from '../support/hooks';
import { HttpClient } from '../support/http-client';
import { childPids, isAlive, NodeProcess } from '../support/node-process';
import { pollUntil } from '../support/poll';

const STANDALONE = 'bin/standalone.js';
const WEB = 'bin/web.js';
const WORKER = 'bin/worker.js';
/** An admin-only route, to tell an accepted admin key (200) from a refused one (401). */
const ADMIN_ROUTE = '/v1/management/customers';
const GENERATED_KEY = /Admin API key \(shown this once[^\n]*\n\s*(adm_[A-Za-z0-9_-]+)/;
const LISTENING = /Listening on /;
const SHUTDOWN_DEADLINE_MS = 25_000;

/** Resolves true once a new TCP connection to `port` is refused. */
function refusesConnections(port: number): Promise<true | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED' ? true : undefined));
  });
}

/** Live redis-server processes working in `dir` (redis-server changes into its --dir). */
function redisServersIn(dir: string): number[] {
  return fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number).filter((pid) => {
    try {
      return isAlive(pid) && fs.readlinkSync(`/proc/${pid}/cwd`) === dir && fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'redis-server';
    } catch {
      return false;
    }
  });
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name));
}

describe('process entry points', function () {
  this.timeout(120_000);

  const started: NodeProcess[] = [];
  const orphans = new Set<number>();
  const dirs: string[] = [];

  const freshDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-test-proc-'));
    dirs.push(dir);
    return dir;
  };
  const run = (entry: string, env: Record<string, string>) => {
    const child = new NodeProcess(entry, { LOG_LEVEL: 'warn', ...env });
    started.push(child);
    return child;
  };
  /** The pid of the redis-server `parent` runs, remembered for cleanup. */
  const embeddedRedisOf = (parent: NodeProcess): number => {
    const pids = childPids(parent.pid, 'redis-server');
    expect(pids, 'redis-server children').to.have.length(1);
    orphans.add(pids[0]);
    return pids[0];
  };
  const waitReady = (client: HttpClient, timeoutMs = 60_000) =>
    pollUntil(async () => ((await client.get('/readyz', { key: null })).status === 200 ? true : undefined), timeoutMs, '/readyz 200');
  const expectCleanExit = async (child: NodeProcess) => {
    const exit = await child.exitWithin(SHUTDOWN_DEADLINE_MS);
    expect(exit, child.output()).to.deep.equal({ code: 0, signal: null });
  };

  after(async () => {
    await Promise.all(started.map((child) => child.kill()));
    for (const pid of orphans) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('standalone with nothing configured', () => {
    let dataDir: string;
    let first: NodeProcess;
    let client: HttpClient;
    let adminKey: string;

    before(async () => {
      dataDir = freshDir();
      const port = await findFreePort();
      first = run(STANDALONE, { PORT: String(port), DATA_DIR: dataDir });
      await first.waitForOutput(LISTENING, 60_000);
      adminKey = GENERATED_KEY.exec(first.stdout)?.[1] as string;
      expect(adminKey, first.output()).to.be.a('string');
      client = new HttpClient(`http://127.0.0.1:${port}`, adminKey);
      await waitReady(client);
    });

    it('starts a redis-server of its own', () => {
      embeddedRedisOf(first);
    });

    it('prints the generated admin key exactly once', () => {
      expect(first.stdout.split(adminKey)).to.have.length(2);
      expect(first.stderr).not.to.include(adminKey);
    });

    it('accepts the printed key as the admin key', async () => {
      const authorised = await client.get(ADMIN_ROUTE);
      expect(authorised.status, authorised.raw.toString()).to.equal(200);
      expect((await client.get(ADMIN_ROUTE, { key: null })).status).to.equal(401);
      expect((await client.get(ADMIN_ROUTE, { key: `${adminKey}x` })).status).to.equal(401);
    });

    it("keeps only the key's SHA-256 in DATA_DIR, never the key", () => {
      const hashFile = path.join(dataDir, ADMIN_KEY_HASH_FILE);
      expect(fs.readFileSync(hashFile, 'utf8').trim()).to.equal(createHash('sha256').update(adminKey).digest('hex'));
      expect(fs.statSync(hashFile).mode & 0o077, 'readable by others').to.equal(0);
      for (const file of filesUnder(dataDir)) {
        expect(fs.readFileSync(file).includes(adminKey), file).to.equal(false);
      }
    });

    it('stops with code 0 on SIGTERM, its redis-server too; restarted, it keeps the key without printing it', async () => {
      const redisPid = embeddedRedisOf(first);
      first.signal('SIGTERM');
      await expectCleanExit(first);
      expect(isAlive(redisPid), 'embedded redis-server still running').to.equal(false);

      const port = await findFreePort();
      const second = run(STANDALONE, { PORT: String(port), DATA_DIR: dataDir });
      await second.waitForOutput(LISTENING, 60_000);
      expect(second.stdout).not.to.include(adminKey);
      expect(second.stdout).not.to.match(GENERATED_KEY);
      const again = new HttpClient(`http://127.0.0.1:${port}`, adminKey);
      await waitReady(again);
      const authorised = await again.get(ADMIN_ROUTE);
      expect(authorised.status, authorised.raw.toString()).to.equal(200);
      second.signal('SIGTERM');
      await expectCleanExit(second);
    });
  });

  describe('standalone graceful shutdown', () => {
    let dataDir: string;
    let port: number;
    let standalone: NodeProcess;

    beforeEach(async () => {
      dataDir = freshDir();
      port = await findFreePort();
      standalone = run(STANDALONE, { PORT: String(port), DATA_DIR: dataDir });
      await standalone.waitForOutput(LISTENING, 60_000);
      await waitReady(new HttpClient(`http://127.0.0.1:${port}`, ''));
    });

    it('finishes an in-flight upload, refuses new connections, and exits 0 within 25 s', async () => {
      const redisPid = embeddedRedisOf(standalone);
      const storage = new LocalStorage(path.join(dataDir, 'objects'), `http://127.0.0.1:${port}`, new UrlSigner(loadSigningKey(dataDir)));
      const chunk = randomBytes(64 * 1024);
      const chunks = 20;
      const size = chunk.length * chunks;
      const objectKey = 'shutdown/in-flight.bin';
      const url = await storage.presignPut(objectKey, { expiresInSeconds: 120, contentLength: size });

      // Expect: 100-continue: the 'continue' event proves the server has taken the request.
      const request = http.request(url, {
        method: 'PUT',
        agent: false,
        headers: { 'content-length': String(size), expect: '100-continue', 'content-type': 'application/octet-stream' },
      });
      const response = once(request, 'response') as Promise<[http.IncomingMessage]>;
      await once(request, 'continue');
      request.write(chunk);

      standalone.signal('SIGTERM');
      await pollUntil(() => refusesConnections(port), 5_000, 'refusing new connections');

      // The rest of the body trickles in over about two seconds while the process is stopping.
      for (let sent = 1; sent < chunks; sent += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        request.write(chunk);
      }
      request.end();

      const [answer] = await response;
      const body = Buffer.concat(await answer.toArray()).toString();
      expect(answer.statusCode, body).to.equal(200);
      expect(JSON.parse(body).data.size).to.equal(size);
      expect(fs.statSync(path.join(dataDir, 'objects', objectKey)).size).to.equal(size);

      await expectCleanExit(standalone);
      expect(isAlive(redisPid), 'embedded redis-server still running').to.equal(false);
    });

    it('exits 0 when a terminal interrupt reaches the whole process group', async () => {
      const redisPid = embeddedRedisOf(standalone);
      standalone.signalGroup('SIGINT');
      await expectCleanExit(standalone);
      expect(isAlive(redisPid), 'embedded redis-server still running').to.equal(false);
      // Ctrl-C stops the embedded redis-server at once too: expected, so no outage is reported.
      expect(standalone.output()).not.to.match(/redis is unreachable|"level":(40|50|60)/);
    });
  });

  describe('standalone start-up failure', () => {
    let occupier: net.Server;
    before(async () => {
      occupier = net.createServer();
      occupier.listen(0);
      await once(occupier, 'listening');
    });
    after(() => {
      occupier?.close();
    });

    it('exits non-zero when its port is taken, saying so in one line without a stack, leaving no redis-server behind', async () => {
      const dataDir = freshDir();
      const child = run(STANDALONE, { PORT: String((occupier.address() as net.AddressInfo).port), DATA_DIR: dataDir });
      const exit = await child.exitWithin(30_000);
      expect(exit.code, child.output()).to.equal(1);
      expect(child.stdout + child.stderr).to.include('is already in use by another process (stop it, or choose another PORT)');
      expect(child.stdout + child.stderr, `no stack trace after the line that says it:\n${child.output()}`).not.to.match(/\bat \S+ \(|"stack"/);
      const left = redisServersIn(path.join(dataDir, 'redis'));
      left.forEach((pid) => orphans.add(pid));
      expect(left, 'redis-server processes still running in DATA_DIR').to.deep.equal([]);
    });

    it('says plainly that the port is taken, keeps no key it did not show, and shows a usable one at the next start', async () => {
      const dataDir = freshDir();
      const takenPort = (occupier.address() as net.AddressInfo).port;
      const failed = run(STANDALONE, { PORT: String(takenPort), DATA_DIR: dataDir });
      expect((await failed.exitWithin(30_000)).code, failed.output()).to.equal(1);
      expect(failed.stdout).to.include(`could not start: 127.0.0.1:${takenPort} is already in use by another process`);
      // The failure is the news: the embedded Redis stopping after it is no outage to report.
      expect(failed.output()).not.to.include('redis is unreachable');
      expect(failed.stdout).not.to.match(/Admin API key/);
      expect(fs.existsSync(path.join(dataDir, ADMIN_KEY_HASH_FILE)), 'a kept hash of a key never shown').to.equal(false);

      const port = await findFreePort();
      const second = run(STANDALONE, { PORT: String(port), DATA_DIR: dataDir });
      const [, adminKey] = await second.waitForOutput(GENERATED_KEY, 60_000);
      embeddedRedisOf(second);
      const client = new HttpClient(`http://127.0.0.1:${port}`, adminKey);
      await waitReady(client);
      expect((await client.get(ADMIN_ROUTE)).status).to.equal(200);
      second.signal('SIGTERM');
      await expectCleanExit(second);
    });
  });

  describe('invalid environment', () => {
    for (const entry of [STANDALONE, WEB, WORKER]) {
      it(`${entry} exits non-zero listing every invalid variable`, async () => {
        const dataDir = freshDir();
        const child = run(entry, { PORT: 'abc', ADMIN_API_KEYS: 'short', LOG_LEVEL: 'loud', DATA_DIR: dataDir, REDIS_URL: testRedisUrl() });
        const exit = await child.exitWithin(15_000);
        expect(exit.code, child.output()).to.equal(1);
        for (const variable of ['PORT', 'ADMIN_API_KEYS', 'LOG_LEVEL']) expect(child.stderr).to.include(variable);
        expect(fs.readdirSync(dataDir), 'nothing written before the configuration is valid').to.deep.equal([]);
      });
    }

    for (const entry of [WEB, WORKER]) {
      it(`${entry} exits non-zero without REDIS_URL`, async () => {
        const child = run(entry, { DATA_DIR: freshDir(), ADMIN_API_KEYS: randomBytes(24).toString('hex') });
        const exit = await child.exitWithin(15_000);
        expect(exit.code, child.output()).to.equal(1);
        expect(child.stdout + child.stderr).to.include('REDIS_URL');
      });
    }
  });

  describe('web and worker processes', () => {
    const adminKey = `adm_${randomBytes(24).toString('hex')}`;
    const env = (port: number) => ({
      PORT: String(port),
      DATA_DIR: freshDir(),
      ADMIN_API_KEYS: adminKey,
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: `p${randomBytes(6).toString('hex')}`,
      LOG_LEVEL: 'info',
    });

    it('web serves /readyz 200 and the admin key, and exits 0 on SIGTERM', async () => {
      const port = await findFreePort();
      const web = run(WEB, env(port));
      const client = new HttpClient(`http://127.0.0.1:${port}`, adminKey);
      await waitReady(client, 30_000);
      expect(web.stdout).not.to.include(adminKey);
      const authorised = await client.get(ADMIN_ROUTE);
      expect(authorised.status, authorised.raw.toString()).to.equal(200);
      web.signal('SIGTERM');
      await expectCleanExit(web);
      expect(await refusesConnections(port)).to.equal(true);
    });

    it('web stopped while still waiting for Redis at start-up exits 0', async () => {
      const unreachable = `redis://127.0.0.1:${await findFreePort()}`;
      const web = run(WEB, { ...env(await findFreePort()), REDIS_URL: unreachable });
      await web.waitForOutput(/redis is unreachable/, 15_000);
      web.signal('SIGTERM');
      const exit = await web.exitWithin(5_000);
      expect(exit, web.output()).to.deep.equal({ code: 0, signal: null });
    });

    it('worker that has lost Redis exits 0 on SIGTERM without waiting out the shutdown deadline', async () => {
      const redis = await startDedicatedRedis();
      try {
        const worker = run(WORKER, { ...env(await findFreePort()), REDIS_URL: redis.url });
        await worker.waitForOutput(/"msg":"workers started"/, 30_000);
        await redis.stop();
        await worker.waitForOutput(/redis is unreachable/, 10_000);
        worker.signal('SIGTERM');
        const exit = await worker.exitWithin(5_000);
        expect(exit, worker.output()).to.deep.equal({ code: 0, signal: null });
      } finally {
        await redis.dispose();
      }
    });

    it('worker starts its workers and exits 0 on SIGTERM', async () => {
      const worker = run(WORKER, env(await findFreePort()));
      await worker.waitForOutput(/"msg":"workers started"/, 30_000);
      worker.signal('SIGTERM');
      await expectCleanExit(worker);
      expect(worker.stdout).to.match(/"msg":"shut down"/);
    });
  });
});
