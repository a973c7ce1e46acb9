import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { formatChecksum } from '../../shared/hashing';
import { newId } from '../../shared/ids';
import { fileStorageKey } from '../../shared/uploads/storage-keys';
import { writeBlockmap } from '../support/blockmaps';
import { electronUpdateClient } from '../support/electron-updater-client';
import { createApplication, createCustomer, sha256, smallUploadForm, uploadSmallFile } from '../support/factories';
import { createBucket } from '../support/s3-bucket';
import { s3Environment, S3rverProcess, startS3rver } from '../support/s3rver';
import { startTestApp, TestApp } from '../support/test-app';

const MIB = 1024 * 1024;
const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');

/** Two builds of one installer that share most blocks: 20 MiB of random bytes, then the same with three regions rewritten. */
function twoBuilds(): { old: Buffer; next: Buffer } {
  const old = randomBytes(20 * MIB);
  const next = Buffer.from(old);
  for (const [offset, length] of [[1 * MIB, 40_000], [9 * MIB + 12_345, 100_000], [17 * MIB, 5_000]]) randomBytes(length).copy(next, offset);
  return { old, next };
}

const installerName = (version: string) => `Bds-Setup-${version}.exe`;

for (const storage of ['embedded store', 'S3'] as const) {
  describe(`electron-updater differential downloads (${storage})`, function () {
    this.timeout(120_000);
    let app: TestApp;
    let s3: S3rverProcess | undefined;
    let directory: string;
    const { old, next } = twoBuilds();
    const blockmaps = new Map<string, Buffer>();

    before(async () => {
      directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-blockmaps-'));
      for (const [version, bytes] of [['1.0.0', old], ['1.1.0', next]] as const) {
        const file = path.join(directory, installerName(version));
        await fsp.writeFile(file, bytes);
        const { blockmap, summary } = await writeBlockmap(file);
        expect(summary).to.deep.equal({ size: bytes.length, sha512: sha512(bytes) });
        blockmaps.set(version, blockmap);
      }
      if (storage === 'S3') s3 = await startS3rver();
      app = await startTestApp({ workers: false, env: s3 ? s3Environment(s3, 'differential-updates') : {} });
      if (app.config.s3) await createBucket(app.config.s3);
    });
    after(async () => {
      await app.close();
      await s3?.stop();
      await fsp.rm(directory, { recursive: true, force: true });
    });

    /** A Windows x64 installer stored as the release API stores it (version, file with both digests); larger than a small upload takes. */
    async function publishInstaller(applicationId: string, version: string, bytes: Buffer): Promise<void> {
      const { store, storage: objects } = app.core;
      const now = new Date();
      const fileId = newId('fil');
      const storageKey = fileStorageKey(applicationId, fileId);
      await objects.put(storageKey, Readable.from([bytes]));
      await store.versions.upsertVersion(applicationId, version, { initialStatus: 'published' }, now);
      await store.versions.insertFile({
        fileId, applicationId, version, fileName: installerName(version), fileSize: bytes.length,
        contentType: 'application/octet-stream', checksum: null, fileType: 'MAIN', status: 'pending',
        storageKey, platform: 'windows', arch: 'x64', createdAt: now, updatedAt: now,
      });
      await store.versions.setFileStatus(fileId, 'pending', 'available', formatChecksum(sha256(bytes)), now);
      await store.versions.setFileDigests(fileId, { sha512: sha512(bytes), sha1: createHash('sha1').update(bytes).digest('hex') });
    }

    /** Both versions with their blockmaps, the blockmaps uploaded through the API as electron-builder's publisher would, by name alone. */
    async function releasedApplication(options: { withBlockmaps?: boolean } = {}) {
      const { applicationId } = await createApplication(app);
      await publishInstaller(applicationId, '1.0.0', old);
      await publishInstaller(applicationId, '1.1.0', next);
      if (options.withBlockmaps !== false) {
        for (const version of ['1.0.0', '1.1.0']) {
          await uploadSmallFile(app, {
            applicationId, version, fileName: `${installerName(version)}.blockmap`, content: blockmaps.get(version), platform: 'windows', arch: 'x64',
          });
        }
      }
      const customer = await createCustomer(app);
      const patched = await app.http.patch(`/v1/management/applications/${applicationId}`, { customerIds: [customer.customerId] });
      expect(patched.status).to.equal(200);
      return { applicationId, customer };
    }

    const feedOf = (applicationId: string) => `${app.baseUrl}/v1/updates/${applicationId}/electron`;

    /** The NSIS updater of an app running 1.0.0, with 1.0.0's installer in its cache; on S3 with the setting the README gives. */
    const windowsClient = (applicationId: string, apiKey: string) => electronUpdateClient({
      feedUrl: feedOf(applicationId), version: '1.0.0', platform: 'win32', authorization: `Bearer ${apiKey}`, installedInstaller: old,
      useMultipleRangeRequest: storage === 'S3' ? false : undefined,
    });

    it('updates from 1.0.0 to 1.1.0 by fetching only the changed blocks, with the SHA-512 verified by the client', async () => {
      const { applicationId, customer } = await releasedApplication();
      const client = await windowsClient(applicationId, customer.apiKey);
      try {
        const checked = await client.check();
        expect(checked?.updateInfo.version).to.equal('1.1.0');
        // The differential downloader checks the new file's SHA-512 from latest.yml as it writes it, then the download is checked again.
        const [downloaded] = await client.download();
        expect((await fsp.readFile(downloaded)).equals(next), 'the installed update is 1.1.0 byte for byte').to.equal(true);

        const requests = client.executor.requests;
        const blockmapRequests = requests.filter((request) => /\.blockmap$/.test(new URL(request.url).pathname));
        expect(blockmapRequests.map((request) => new URL(request.url).pathname)).to.deep.equal([
          `/v1/updates/${applicationId}/electron/1.1.0/${installerName('1.1.0')}.blockmap`,
          `/v1/updates/${applicationId}/electron/1.0.0/${installerName('1.0.0')}.blockmap`,
        ]);
        const rangeRequests = requests.filter((request) => request.range !== undefined);
        expect(rangeRequests).to.not.be.empty;
        expect(requests.filter((request) => request.range === undefined && request.status === 200 && request.bodyBytes > 1 * MIB), 'no whole-file download').to.be.empty;
        if (storage === 'embedded store') {
          // Several ranges per request, answered as multipart/byteranges by the embedded store.
          expect(rangeRequests.some((request) => request.range?.includes(','))).to.equal(true);
        } else {
          // One range per request, as S3 answers them.
          expect(rangeRequests.every((request) => !request.range?.includes(','))).to.equal(true);
        }
        const sent = requests.reduce((sum, request) => sum + request.bodyBytes, 0);
        const fraction = sent / next.length;
        console.log(`      ${storage}: ${sent} bytes sent of a ${next.length}-byte update (${(fraction * 100).toFixed(2)} %), in ${requests.length} requests`);
        expect(fraction).to.be.below(0.05);
      } finally {
        await client.close();
      }
    });

    it('records no download for the blockmaps and the byte ranges of a differential update', async () => {
      const { applicationId, customer } = await releasedApplication();
      const client = await windowsClient(applicationId, customer.apiKey);
      try {
        await client.check();
        await client.download();
      } finally {
        await client.close();
      }
      expect(await app.core.store.activity.listEvents({ applicationId, type: 'download', limit: 10 })).to.deep.equal([]);
      // A blockmap fetched whole, as the client does, is no download either; its bytes are what was uploaded.
      const blockmap = await app.http.get(`/v1/updates/${applicationId}/electron/1.1.0/${installerName('1.1.0')}.blockmap`, { key: customer.apiKey });
      expect(blockmap.status).to.equal(302);
      const bytes = Buffer.from(await (await fetch(blockmap.headers.get('location') as string)).arrayBuffer());
      expect(JSON.parse(gunzipSync(bytes).toString()).version).to.equal('2');
      expect(await app.core.store.activity.listEvents({ applicationId, type: 'download', limit: 10 })).to.deep.equal([]);
    });

    it('serves the blockmap of the version the client runs once it is superseded or yanked, never a draft\'s, and only to customers of the application', async () => {
      const { applicationId, customer } = await releasedApplication();
      const oldBlockmap = `/v1/updates/${applicationId}/electron/1.0.0/${installerName('1.0.0')}.blockmap`;
      expect((await app.http.get(oldBlockmap, { key: customer.apiKey })).status).to.equal(302);
      const yanked = await app.http.patch(`/v1/management/applications/${applicationId}/versions/1.0.0`, { status: 'yanked' });
      expect(yanked.status, yanked.raw.toString()).to.equal(200);
      expect((await app.http.get(oldBlockmap, { key: customer.apiKey })).status, 'a yanked build\'s blockmap').to.equal(302);
      expect((await app.http.get(`/v1/updates/${applicationId}/electron/1.0.0/${installerName('1.0.0')}`, { key: customer.apiKey })).status, 'its file').to.equal(410);

      await uploadSmallFile(app, { applicationId, version: '2.0.0', fileName: 'Bds-Setup-2.0.0.exe.blockmap', status: 'draft', platform: 'windows', arch: 'x64' });
      const draft = await app.http.get(`/v1/updates/${applicationId}/electron/2.0.0/Bds-Setup-2.0.0.exe.blockmap`, { key: customer.apiKey });
      expect(draft.status).to.equal(404);
      const missing = await app.http.get(`/v1/updates/${applicationId}/electron/1.1.0/Other-1.1.0.exe.blockmap`, { key: customer.apiKey });
      expect(missing.status).to.equal(404);
      const stranger = await createCustomer(app);
      expect((await app.http.get(oldBlockmap, { key: stranger.apiKey })).status).to.equal(404);
    });

    it('takes a .blockmap upload as a BLOCKMAP file, which takes no MAIN slot, and refuses a BLOCKMAP named otherwise, storing nothing', async () => {
      const { applicationId } = await releasedApplication();
      const versions = await app.http.get(`/v1/management/applications/${applicationId}/versions`);
      const files = (versions.body.data.versions as { files: { fileName: string; fileType: string }[] }[]).flatMap((version) => version.files);
      expect(files.filter((file) => file.fileName.endsWith('.blockmap')).map((file) => file.fileType)).to.deep.equal(['BLOCKMAP', 'BLOCKMAP']);
      const refused = await app.http.request('POST', '/v1/management/upload', {
        body: smallUploadForm({ applicationId, version: '1.1.0', fileName: 'Bds-Setup-1.1.0.map', fileType: 'BLOCKMAP', platform: 'windows', arch: 'x64' }),
      });
      expect(refused.status).to.equal(400);
      expect(refused.body.error.details[0].field).to.equal('fileType');
      const after = await app.http.get(`/v1/management/applications/${applicationId}/versions`);
      expect((after.body.data.versions as { files: unknown[] }[]).flatMap((version) => version.files)).to.have.length(files.length);
    });

    it('answers 404 for the blockmap of a version published without one, which electron-updater takes to download the whole file', async () => {
      const { applicationId, customer } = await releasedApplication({ withBlockmaps: false });
      const blockmap = await app.http.get(`/v1/updates/${applicationId}/electron/1.1.0/${installerName('1.1.0')}.blockmap`, { key: customer.apiKey });
      expect(blockmap.status).to.equal(404);
      // The package's test mode throws where an installed app falls back (AppUpdater.differentialDownloadInstaller): the failure is the 404.
      const differential = await windowsClient(applicationId, customer.apiKey);
      try {
        await differential.check();
        const failure = await differential.download().then(() => null, (error: Error) => error);
        expect(String(failure)).to.include('404');
      } finally {
        await differential.close();
      }
      const whole = await electronUpdateClient({ feedUrl: feedOf(applicationId), version: '1.0.0', platform: 'win32', authorization: `Bearer ${customer.apiKey}` });
      try {
        await whole.check();
        const [downloaded] = await whole.download();
        expect((await fsp.readFile(downloaded)).equals(next)).to.equal(true);
      } finally {
        await whole.close();
      }
    });

    it('answers one byte range of a file link itself and redirects several to the object store, which on S3 answers them whole (hence the client setting)', async () => {
      const { applicationId, customer } = await releasedApplication();
      const link = `/v1/updates/${applicationId}/electron/1.1.0/${installerName('1.1.0')}`;
      const one = await app.http.get(link, { key: customer.apiKey, headers: { range: 'bytes=100-109' } });
      expect(one.status).to.equal(206);
      expect(one.headers.get('content-range')).to.equal(`bytes 100-109/${next.length}`);
      expect(one.raw.equals(next.subarray(100, 110))).to.equal(true);
      const redirect = await app.http.get(link, { key: customer.apiKey, headers: { range: 'bytes=0-9, 100-109' } });
      expect(redirect.status).to.equal(302);
      const response = await fetch(redirect.headers.get('location') as string, { headers: { range: 'bytes=0-9, 100-109' } });
      const body = Buffer.from(await response.arrayBuffer());
      if (storage === 'embedded store') {
        expect(response.headers.get('content-type')).to.match(/^multipart\/byteranges; boundary=/);
      } else {
        // s3rver answers 206 with every byte, S3 200 with every byte: no multipart/byteranges, which electron-updater needs.
        expect(response.headers.get('content-type') ?? '').to.not.match(/^multipart\/byteranges/);
        expect(body.length).to.equal(next.length);
      }
      expect(await app.core.store.activity.listEvents({ applicationId, type: 'download', limit: 10 })).to.deep.equal([]);
    });
  });
}
