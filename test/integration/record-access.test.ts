import { expect } from 'chai';
import { createAdminKey, createApplication } from '../support/factories';
import type { HttpResult } from '../support/http-client';
import { startTestApp, TestApp } from '../support/test-app';

const LARGE_URL = '/v1/management/upload/large-url';
const LARGE_COMPLETE = '/v1/management/upload/large-complete';
const MULTIPART = '/v1/management/uploads/multipart';

/**
 * A key limited to applications acts on a record it names (an upload) only when the record's stored
 * application is one of them, whatever the request says of its application; its refusals reveal
 * nothing of a record it may not see, and the audit log names the record's application.
 */
describe('access to records named by a request', () => {
  let app: TestApp;
  let mine: string;
  let theirs: string;
  /** Their single-PUT and multipart uploads, as step 1 answered them. */
  const theirUpload = { uploadId: '', version: '7.7.7', fileName: 'their-secret-build.iso', fileSize: 4_242_424 };
  let theirMultipartId: string;
  let limitedKey: string;

  before(async () => {
    app = await startTestApp({ workers: false });
    mine = (await createApplication(app)).applicationId;
    theirs = (await createApplication(app)).applicationId;
    const issued = await app.http.post(LARGE_URL, { applicationId: theirs, ...withoutId(theirUpload) });
    expect(issued.status, issued.raw.toString()).to.equal(201);
    theirUpload.uploadId = issued.body.data.uploadId;
    const multipart = await app.http.post(MULTIPART, { applicationId: theirs, version: '7.7.8', fileName: 'their-other-build.iso', fileSize: 9_999_999 });
    expect(multipart.status, multipart.raw.toString()).to.equal(201);
    theirMultipartId = multipart.body.data.uploadId;
    limitedKey = (await createAdminKey(app, { scopes: ['publish'], applicationIds: [mine] })).apiKey;
  });
  after(() => app?.close());

  /** Nothing of their application or upload but what the request itself sent. */
  function expectRevealsNothing(response: HttpResult, where: string): void {
    const text = response.raw.toString();
    for (const secret of [theirs, theirUpload.version, theirUpload.fileName, String(theirUpload.fileSize), '7.7.8', 'their-other-build.iso', '9999999']) {
      expect(text, `${where} reveals ${secret}`).to.not.include(secret);
    }
  }

  it('refuses large-complete naming another application\'s upload under the key\'s own application, revealing nothing of it', async () => {
    const refused = await app.http.post(LARGE_COMPLETE, { uploadId: theirUpload.uploadId, applicationId: mine, version: '1.0.0', fileName: 'mine.iso', fileSize: 10 }, { key: limitedKey });
    expect(refused.status, refused.raw.toString()).to.equal(403);
    expect(refused.body.error).to.deep.equal({ code: 'FORBIDDEN', message: `this API key is limited to some applications, and may not act on upload ${theirUpload.uploadId}` });
    expectRevealsNothing(refused, 'large-complete');
    // Naming their application in the body changes nothing: the upload's stored application decides.
    const named = await app.http.post(LARGE_COMPLETE, { uploadId: theirUpload.uploadId, applicationId: theirs, ...withoutId(theirUpload) }, { key: limitedKey });
    expect(named.status).to.equal(403);
    expect((await app.http.get(`/v1/management/uploads/${theirUpload.uploadId}`)).body.data.status).to.equal('issued');
  });

  it('answers every route naming their upload, and one naming no upload at all, with the same refusal', async () => {
    const requests: Array<[string, (uploadId: string) => Promise<HttpResult>]> = [
      ['GET upload', (uploadId) => app.http.get(`/v1/management/uploads/${uploadId}`, { key: limitedKey })],
      ['parts', (uploadId) => app.http.post(`/v1/management/uploads/${uploadId}/parts`, { partNumbers: [1] }, { key: limitedKey })],
      ['complete', (uploadId) => app.http.post(`/v1/management/uploads/${uploadId}/complete`, undefined, { key: limitedKey })],
      ['abort', (uploadId) => app.http.delete(`/v1/management/uploads/${uploadId}`, { key: limitedKey })],
      ['large-complete', (uploadId) => app.http.post(LARGE_COMPLETE, { uploadId, applicationId: mine, version: '1.0.0', fileName: 'mine.iso', fileSize: 10 }, { key: limitedKey })],
    ];
    for (const [where, send] of requests) {
      for (const uploadId of [theirUpload.uploadId, theirMultipartId, 'upl_no_such_upload']) {
        const refused = await send(uploadId);
        expect(refused.status, `${where} ${uploadId}: ${refused.raw.toString()}`).to.equal(403);
        expect(refused.body.error, where).to.deep.equal({ code: 'FORBIDDEN', message: `this API key is limited to some applications, and may not act on upload ${uploadId}` });
        expectRevealsNothing(refused, where);
      }
    }
    // Nothing was done to either upload.
    expect((await app.http.get(`/v1/management/uploads/${theirMultipartId}`)).body.data.status).to.equal('issued');
  });

  it('lets the key act on its own application\'s upload, and the audit log names the upload\'s application, not the body\'s', async () => {
    const own = await app.http.post(LARGE_URL, { applicationId: mine, version: '1.0.0', fileName: 'mine.iso', fileSize: 10 }, { key: limitedKey });
    expect(own.status, own.raw.toString()).to.equal(201);
    const { uploadId } = own.body.data;
    expect((await app.http.get(`/v1/management/uploads/${uploadId}`, { key: limitedKey })).status).to.equal(200);

    // A root key whose body names the other application: refused by the service as not matching, audited under the upload's.
    const mismatched = await app.http.post(LARGE_COMPLETE, { uploadId, applicationId: theirs, version: '1.0.0', fileName: 'mine.iso', fileSize: 10 });
    expect(mismatched.status, mismatched.raw.toString()).to.equal(400);
    const requestId = mismatched.headers.get('x-request-id');
    const entries = (await app.http.get('/v1/management/audit?limit=20')).body.data.entries as Array<Record<string, unknown>>;
    expect(entries.find((entry) => entry.requestId === requestId)).to.deep.include({ action: 'upload.complete', target: uploadId, applicationId: mine, outcome: 'refused', status: 400 });

    // The limited key completing its own upload (no bytes yet: 409) is audited under its application too.
    const early = await app.http.post(LARGE_COMPLETE, { uploadId, applicationId: mine, version: '1.0.0', fileName: 'mine.iso', fileSize: 10 }, { key: limitedKey });
    expect(early.status, early.raw.toString()).to.equal(409);
    const after = (await app.http.get('/v1/management/audit?limit=20')).body.data.entries as Array<Record<string, unknown>>;
    expect(after.find((entry) => entry.requestId === early.headers.get('x-request-id'))).to.deep.include({ applicationId: mine, status: 409 });
  });
});

function withoutId({ uploadId: _, ...rest }: { uploadId: string; version: string; fileName: string; fileSize: number }) {
  return rest;
}
