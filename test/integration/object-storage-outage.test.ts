import { expect } from 'chai';
import { createApplication, smallUploadForm } from '../support/factories';
import { s3Environment, S3rverProcess, startS3rver } from '../support/s3rver';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * S3 configured with a bucket that does not exist, then not reachable at all: requests that need
 * the object store are answered in the envelope with a 503 (or the 409 of a missing object), never
 * a 500, and nothing half-done is published.
 */
describe('object storage unavailable', function () {
  this.timeout(60_000);
  let s3: S3rverProcess;
  let app: TestApp;

  before(async () => {
    s3 = await startS3rver();
    app = await startTestApp({ workers: false, env: s3Environment(s3, 'no-such-bucket') });
  });
  after(async () => {
    await app?.close();
    await s3?.stop();
  });

  function expectUnavailable(response: { status: number; body: any }) {
    expect(response.status, JSON.stringify(response.body)).to.equal(503);
    expect(response.body).to.deep.equal({
      success: false,
      error: { code: 'SERVICE_UNAVAILABLE', message: 'a dependency is unavailable, try again shortly' },
    });
  }

  /** `missingObject`: S3 answers a HEAD in a missing bucket as a plain 404, the same as for a missing object. */
  async function attempts(applicationId: string, completion: 'unavailable' | 'missingObject') {
    expectUnavailable(await app.http.request('POST', '/v1/management/upload', {
      body: smallUploadForm({ applicationId, version: '1.0' }),
    }));
    const issued = await app.http.post('/v1/management/upload/large-url', { applicationId, version: '2.0', fileName: 'big.iso', fileSize: 1024 });
    expect(issued.status).to.equal(201);
    const completed = await app.http.post('/v1/management/upload/large-complete', {
      uploadId: issued.body.data.uploadId, applicationId, version: '2.0', fileName: 'big.iso', fileSize: 1024,
      checksum: `sha256:${'0'.repeat(64)}`,
    });
    if (completion === 'unavailable') expectUnavailable(completed);
    else expect(completed.status, JSON.stringify(completed.body)).to.equal(409);
    const versions = await app.http.get(`/v1/management/applications/${applicationId}/versions`);
    expect(versions.status).to.equal(200);
    expect(versions.body.data.versions.flatMap((v: { files: unknown[] }) => v.files).filter((f: any) => f.status === 'available')).to.deep.equal([]);
  }

  it('answers 503 while the bucket is missing', async () => {
    const { applicationId } = await createApplication(app);
    await attempts(applicationId, 'missingObject');
  });

  it('answers 503 while the object store does not answer', async () => {
    const { applicationId } = await createApplication(app);
    await s3.stop();
    await attempts(applicationId, 'unavailable');
  });
});
