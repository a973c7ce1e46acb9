import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Updater } from 'tuf-js';
import { TUF_SIGN_ON_READ_INTERVAL_MS } from '../../shared/policy';
import { openTufRepositories } from '../../shared/runtime/tuf-repositories';
import { versionOf } from '../../shared/tuf/repository';
import { CliUser, jsonOf } from '../support/cli-process';
import { createApplication, createCustomer, uploadSmallFile, storageKeyOf } from '../support/factories';
import { pollUntil } from '../support/poll';
import { rejectionOf } from '../support/rejection';
import { createBucket } from '../support/s3-bucket';
import { s3Environment, S3rverProcess, startS3rver } from '../support/s3rver';
import { startTestApp, type TestApp } from '../support/test-app';

const DAY_MS = 24 * 3600 * 1000;

/**
 * A customer's TUF client (tuf-js, the client npm itself uses) against the service over HTTP, through
 * an access token in the path: the vendor's root made offline with `bds tuf init` and rotated with
 * `bds tuf rotate`, the online roles signed by the service, targets fetched through the download
 * route's 302. On the embedded store and on S3 (s3rver); on MongoDB too when MONGODB_URI is set.
 */
for (const storage of ['local storage', 'S3'] as const) describe(`TUF repository read by tuf-js over HTTP (${storage})`, function () {
  this.timeout(120_000);
  let app: TestApp;
  let s3: S3rverProcess | undefined;
  let vendor: CliUser;
  let token: string;
  let applicationId: string;
  let customerId: string;
  let keysDir: string;
  const clientDirs: string[] = [];
  /** The gateway's clock, moved by the tests only: its signing on read happens when a test moves it past the interval. */
  let now = Date.now();
  const moveOnPastSigningInterval = () => { now += TUF_SIGN_ON_READ_INTERVAL_MS + 1_000; };

  const repositoryUrl = () => `${app.baseUrl}/t/${token}/v1/tuf/${applicationId}`;
  /** The same signing the workers' job runs (`resign-tuf-metadata`), here at once; `at` is the signer's clock. */
  const resign = (at: () => Date = () => new Date()) => openTufRepositories(app.core.store, app.config, at).resign(applicationId);

  /** A client that trusts `root` as shipped with the application, or the one that ran in `dir` before. */
  const client = (root: string | null, dir?: string): { updater: Updater; dir: string } => {
    const metadataDir = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tuf-js-'));
    if (!dir) {
      clientDirs.push(metadataDir);
      fs.writeFileSync(path.join(metadataDir, 'root.json'), root as string);
      fs.mkdirSync(path.join(metadataDir, 'targets'));
    }
    return {
      dir: metadataDir,
      updater: new Updater({
        metadataDir, metadataBaseUrl: repositoryUrl(), targetDir: path.join(metadataDir, 'targets'), targetBaseUrl: `${repositoryUrl()}/targets`,
        config: { fetchRetries: 0, fetchTimeout: 10_000 },
      }),
    };
  };

  /** What the customer's application does: refresh the metadata, look the target up, download it checked. */
  const fetchTarget = async (updater: Updater, targetPath: string): Promise<Buffer> => {
    await updater.refresh();
    const info = await updater.getTargetInfo(targetPath);
    if (!info) throw new Error(`${targetPath} is not a target`);
    return fs.readFileSync(await updater.downloadTarget(info, path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tuf-target-')), path.basename(targetPath))));
  };

  const rootV1 = async () => {
    const response = await fetch(`${repositoryUrl()}/1.root.json`);
    expect(response.status).to.equal(200);
    return response.text();
  };

  before(async () => {
    s3 = storage === 'S3' ? await startS3rver() : undefined;
    app = await startTestApp({ workers: false, env: s3 ? s3Environment(s3, 'tuf-client') : {}, clock: { now: () => now } });
    if (app.config.s3) await createBucket(app.config.s3);
    vendor = new CliUser({ BDS_URL: app.baseUrl, BDS_API_KEY: app.adminKey });
    keysDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tuf-root-keys-'));
    const buyer = await createCustomer(app);
    customerId = buyer.customerId;
    ({ applicationId } = await createApplication(app, { customerIds: [customerId] }));
    token = (await app.http.post(`/v1/management/customers/${buyer.customerId}/tokens`, {})).body.data.token as string;
  });
  after(async () => {
    vendor?.remove();
    for (const dir of [keysDir, ...clientDirs]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
    await app?.close();
    await s3?.stop();
  });

  it('makes the root offline with bds tuf init, and a client downloads and verifies a published file', async () => {
    const before = await fetch(`${repositoryUrl()}/timestamp.json`);
    expect(before.status, 'no repository before the vendor uploads a root').to.equal(404);
    const content = randomBytes(2048);
    await uploadSmallFile(app, { applicationId, version: '1.0.0', content, fileName: 'tool-linux-x64.tar.gz', fileType: 'MAIN', platform: 'linux', arch: 'x64' });

    const init = await vendor.run(['tuf', 'init', applicationId, '--keys-dir', keysDir, '--keys', '2', '--threshold', '2', '--json']);
    expect(init.code, init.stderr).to.equal(0);
    const made = jsonOf<{ root: { version: number }; rootKeyIds: string[]; keyFiles: string[] }>(init);
    expect(made.root.version).to.equal(1);
    expect(made.keyFiles).to.have.length(2);
    for (const file of made.keyFiles) expect(fs.statSync(file).mode & 0o777, file).to.equal(0o600);
    // The service keeps public root keys only: no private key of the vendor's reaches it.
    const kept = JSON.stringify(await app.core.store.tuf.latestTufRoot(applicationId));
    for (const file of made.keyFiles) expect(kept).to.not.include(fs.readFileSync(file, 'utf8').split('\n')[1]);

    const timestamp = await fetch(`${repositoryUrl()}/timestamp.json`);
    expect(timestamp.headers.get('cache-control')).to.equal('private, no-cache');
    expect((await fetch(`${repositoryUrl()}/1.root.json`)).headers.get('cache-control')).to.match(/immutable/);
    const { updater } = client(await rootV1());
    expect((await fetchTarget(updater, '1.0.0/tool-linux-x64.tar.gz')).equals(content)).to.equal(true);
    const info = await updater.getTargetInfo('1.0.0/tool-linux-x64.tar.gz');
    expect(info!.custom).to.deep.equal({ platform: 'linux', arch: 'x64', channel: 'stable', fileType: 'MAIN' });
  });

  it('refuses metadata without a token of a customer of the application, and answers a target with a 302 to its pre-signed URL, counted as a download', async () => {
    expect((await fetch(`${app.baseUrl}/v1/tuf/${applicationId}/root.json`)).status).to.equal(401);
    const stranger = await createCustomer(app);
    expect((await fetch(`${app.baseUrl}/v1/tuf/${applicationId}/root.json`, { headers: { Authorization: `Bearer ${stranger.apiKey}` } })).status).to.equal(404);
    const target = await fetch(`${repositoryUrl()}/targets/1.0.0/tool-linux-x64.tar.gz`, { redirect: 'manual' });
    expect(target.status).to.equal(302);
    expect(target.headers.get('location')).to.be.a('string');
    // tuf-js's download before and this one are the customer's downloads of one file, counted as any
    // other: once, as a repeat by the same customer soon after is not counted again.
    const counted = await pollUntil(async () => {
      const events = await app.core.store.activity.listEvents({ type: 'download', applicationId, limit: 10 });
      return events.length > 0 ? events : undefined;
    }, 10_000, 'the download recorded');
    expect(counted.map((event) => [event.version, event.customerId])).to.deep.equal([['1.0.0', customerId]]);
  });

  it(`lists a release published since at the next read of the timestamp, and refuses a target whose bytes were changed in ${storage}`, async () => {
    const content = randomBytes(2048);
    const { fileId } = await uploadSmallFile(app, { applicationId, version: '1.1.0', content, fileName: 'tool-linux-x64.tar.gz', fileType: 'MAIN', platform: 'linux', arch: 'x64' });
    moveOnPastSigningInterval();
    const { updater } = client(await rootV1());
    expect((await fetchTarget(updater, '1.1.0/tool-linux-x64.tar.gz')).equals(content)).to.equal(true);

    // Whoever reaches the bucket (or the data directory) swaps the bytes, length kept.
    await app.core.storage.put(await storageKeyOf(app, fileId), Readable.from([randomBytes(2048)]));
    const tampered = client(await rootV1());
    const refusal = await rejectionOf(fetchTarget(tampered.updater, '1.1.0/tool-linux-x64.tar.gz'));
    expect((refusal as Error).message).to.match(/hash|digest/i);
  });

  it('refuses metadata whose signature does not verify, and a rollback to an older timestamp or snapshot', async () => {
    const older = (await app.core.store.tuf.findTufRepository(applicationId))!.metadata!;
    await uploadSmallFile(app, { applicationId, version: '1.2.0', content: randomBytes(512), fileName: 'tool-linux-x64.tar.gz', fileType: 'MAIN', platform: 'linux', arch: 'x64' });
    const current = (await resign())!;
    expect(versionOf(current.timestamp)).to.be.greaterThan(versionOf(older.timestamp));
    const seen = client(await rootV1());
    await seen.updater.refresh();

    const served = async (metadata: typeof current, expected: string) => {
      expect(await app.core.store.tuf.replaceTufMetadata(applicationId, expected, metadata, new Date())).to.equal(true);
    };
    // A forged timestamp: a later version and expiry, the signature of the document it was.
    const forged = JSON.parse(current.timestamp) as { signed: { version: number; expires: string } };
    forged.signed.version += 5;
    forged.signed.expires = new Date(Date.now() + 365 * DAY_MS).toISOString().replace(/\.\d+Z$/, 'Z');
    await served({ ...current, timestamp: JSON.stringify(forged) }, current.timestamp);
    const unsigned = await rejectionOf(client(await rootV1()).updater.refresh());
    expect((unsigned as Error).message).to.match(/signed by 0\/1 keys/);

    // The whole repository as it was before: the client that saw the newer timestamp refuses it.
    await served(older, JSON.stringify(forged));
    const rolledBack = await rejectionOf(client(null, seen.dir).updater.refresh());
    expect((rolledBack as Error).message).to.match(/version/i);

    // The current timestamp over the older snapshot: the snapshot is not the one the timestamp names.
    await served({ ...current, snapshot: older.snapshot }, older.timestamp);
    const olderSnapshot = await rejectionOf(client(await rootV1()).updater.refresh());
    expect((olderSnapshot as Error).message).to.match(/snapshot|hash|length|version/i);

    await served(current, current.timestamp);
    await client(null, seen.dir).updater.refresh();
  });

  it('refuses expired metadata (signed by a clock 40 days back), and reads it again once the gateway signs on read', async () => {
    const fortyDaysAgo = () => new Date(Date.now() - 40 * DAY_MS);
    await uploadSmallFile(app, { applicationId, version: '1.3.0', content: randomBytes(512), fileName: 'tool-linux-x64.tar.gz', fileType: 'MAIN', platform: 'linux', arch: 'x64' });
    const stale = (await resign(fortyDaysAgo))!;
    expect(Date.parse(JSON.parse(stale.timestamp).signed.expires as string)).to.be.lessThan(Date.now());
    const expired = await rejectionOf(client(await rootV1()).updater.refresh());
    expect((expired as Error).message).to.match(/expired/);

    moveOnPastSigningInterval();
    const { updater } = client(await rootV1());
    await updater.refresh();
    expect(await updater.getTargetInfo('1.3.0/tool-linux-x64.tar.gz')).to.not.equal(undefined);
  });

  it('follows a root rotation made with bds tuf rotate, and no longer trusts the old root keys', async () => {
    const trustingV1 = client(await rootV1());
    await trustingV1.updater.refresh();
    const oldKeys = fs.readdirSync(keysDir).filter((name) => name.endsWith('.pem')).map((name) => path.join(keysDir, name));
    const newDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tuf-root-keys-'));
    clientDirs.push(newDir);
    const rotated = await vendor.run(['tuf', 'rotate', applicationId, ...oldKeys.flatMap((file) => ['--old-key', file]), '--keys-dir', newDir, '--json']);
    expect(rotated.code, rotated.stderr).to.equal(0);
    const made = jsonOf<{ root: { version: number }; rootKeyIds: string[] }>(rotated);
    expect(made.root.version).to.equal(2);

    const content = randomBytes(1024);
    await uploadSmallFile(app, { applicationId, version: '2.0.0', content, fileName: 'tool-linux-x64.tar.gz', fileType: 'MAIN', platform: 'linux', arch: 'x64' });
    await resign();
    const again = client(null, trustingV1.dir);
    expect((await fetchTarget(again.updater, '2.0.0/tool-linux-x64.tar.gz')).equals(content)).to.equal(true);
    const trusted = JSON.parse(fs.readFileSync(path.join(trustingV1.dir, 'root.json'), 'utf8')) as { signed: { version: number; roles: { root: { keyids: string[] } } } };
    expect(trusted.signed.version).to.equal(2);
    expect(trusted.signed.roles.root.keyids).to.deep.equal(made.rootKeyIds);

    // A root 3 signed with the old keys only is refused by the service (and would be by the client).
    const replay = await vendor.run(['tuf', 'rotate', applicationId, ...oldKeys.flatMap((file) => ['--old-key', file]), '--keys-dir', newDir, '--json']);
    expect(replay.code).to.equal(2);
  });
});
