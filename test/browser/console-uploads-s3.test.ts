import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, WatchedPage } from '../support/browser';
import { signInToConsole } from '../support/console-session';
import { s3Environment, S3rverProcess, startS3rver } from '../support/s3rver';
import { startTestApp, TestApp } from '../support/test-app';

const MIB = 1024 * 1024;
const BUCKET = 'console-uploads';

/** The README's bucket rule, as s3rver reads it: the console's origin may PUT parts and read their ETag. */
const CORS_RULE = `<CORSConfiguration><CORSRule>
  <AllowedOrigin>http://localhost:*</AllowedOrigin><AllowedMethod>PUT</AllowedMethod>
  <AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3600</MaxAgeSeconds>
</CORSRule></CORSConfiguration>`;

describe('console: uploads from the browser straight to an S3 bucket (real Chromium, s3rver)', function () {
  this.timeout(120_000);
  let s3: S3rverProcess;
  let app: TestApp;
  let browser: Browser;
  let watched: WatchedPage;
  let directory: string;

  before(async () => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'console-s3-'));
    fs.writeFileSync(path.join(directory, 'cors.xml'), CORS_RULE);
    s3 = await startS3rver({ name: BUCKET, configFiles: [path.join(directory, 'cors.xml')] });
    app = await startTestApp({ env: s3Environment(s3, BUCKET) });
    browser = await launchBrowser();
    // The bucket is the one other origin the page may reach.
    watched = await openPage(browser, app.config.publicBaseUrl, { allowedErrors: [new RegExp(`^${s3.endpoint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`)] });
  });
  after(async () => {
    await watched?.close();
    await browser?.close();
    await app?.close();
    await s3?.stop();
    fs.rmSync(directory, { recursive: true, force: true });
  });

  // s3rver implements neither ListParts nor AbortMultipartUpload, which completing, resuming and
  // cancelling need (the S3 multipart suite skips them too): here the parts' way to the bucket is
  // what is proved, the rest on the embedded store (console-releases.test.ts) and S3's own protocol.
  it('sends the parts from the page straight to the bucket\'s pre-signed URLs, through its CORS rule', async () => {
    const file = path.join(directory, 'cloud-tool-2.0.0-arm64.AppImage');
    const bytes = Buffer.alloc(40 * MIB);
    for (let offset = 0; offset < bytes.length; offset += 4096) bytes.writeUInt32BE(offset, offset);
    fs.writeFileSync(file, bytes);
    await app.http.post('/v1/management/applications', { applicationId: 'cloud-tool', name: 'Cloud Tool' });

    const stored: Array<{ part: number; origin: string; status: number; exposedTag: string | null }> = [];
    const { page } = watched;
    page.on('response', (response) => {
      const request = response.request();
      const url = new URL(request.url());
      if (request.method() !== 'PUT') return;
      stored.push({ part: Number(url.searchParams.get('partNumber')), origin: url.origin, status: response.status(), exposedTag: response.headers()['access-control-expose-headers'] ?? null });
    });
    await signInToConsole(page, app.adminKey);
    await page.goto('/console/applications/cloud-tool/versions/2.0.0?channel=stable&status=draft');
    await page.getByLabel('Files to upload').setInputFiles(file);
    const item = page.getByRole('listitem', { name: 'Upload of cloud-tool-2.0.0-arm64.AppImage' });
    expect(await item.getByLabel('Platform').inputValue()).to.equal('linux');
    expect(await item.getByLabel('Arch').inputValue()).to.equal('arm64');
    await item.getByRole('button', { name: 'Upload' }).click();
    await item.getByText('part 5 of 5').waitFor({ timeout: 60_000 });

    expect(stored.map((put) => put.part).sort((a, b) => a - b)).to.deep.equal([1, 2, 3, 4, 5]);
    for (const put of stored) {
      expect(put).to.include({ origin: s3.endpoint, status: 200 });
      expect(put.exposedTag?.toLowerCase()).to.include('etag');
    }
    expect(watched.problems.filter((problem) => /CORS|blocked|Content Security Policy|another origin/i.test(problem))).to.deep.equal([]);
  });
});
