import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { issueCustomerKey } from '../../shared/api-keys';
import { newId } from '../../shared/ids';
import type { FileRecord } from '../../shared/store/models';
import { createApplication, createCustomer, sha256, smallUploadForm, uploadSmallFile } from '../support/factories';
import type { HttpResult } from '../support/http-client';
import { startTestApp, TestApp } from '../support/test-app';

/** Visible test names for strings full of control characters. */
const shown = (value: unknown) => JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** What a refused request could have changed: every record the API shows, the activity feed and the stored objects. */
async function serviceState(app: TestApp) {
  const applications = (await app.http.get('/v1/management/applications?includeDeleted=true&pageSize=100')).body.data.applications as { applicationId: string }[];
  const details = await Promise.all(applications.map(async ({ applicationId }) => (await app.http.get(`/v1/management/applications/${applicationId}?includeDeleted=true`)).body.data));
  const customers = (await app.http.get('/v1/management/customers?pageSize=100')).body.data.customers as { customerId: string }[];
  // lastUsedAt records the authentication of the request itself, not a change it made.
  const keys = await Promise.all(customers.map(async ({ customerId }) => (await app.http.get(`/v1/management/customers/${customerId}/apikeys`)).body.data.apiKeys
    .map(({ lastUsedAt: _used, ...key }: { lastUsedAt: string | null }) => key)));
  const activity = (await app.http.get('/v1/activity?limit=100')).body.data;
  const objects = [
    ...(await app.core.storage.listKeys('staging', 1_000)),
    ...(await Promise.all(applications.map(({ applicationId }) => app.core.storage.listKeys(`files/${applicationId}`, 1_000)))).flat(),
    ...(await Promise.all(applications.map(({ applicationId }) => app.core.storage.listKeys(`files/${applicationId}/sha256`, 1_000)))).flat(),
  ].sort();
  return { details, customers, keys, activity, objects };
}

function expectValidationError(result: HttpResult, field: string): void {
  expect(result.status, shown(result.body)).to.equal(400);
  expect(result.body.success).to.equal(false);
  expect(result.body.error.code).to.equal('VALIDATION_ERROR');
  expect(result.body.error.details.map((d: { field: string }) => d.field)).to.include(field);
}

/** A multipart body written by hand, for field names and file names a FormData would not send as given. */
function rawForm(parts: Array<{ name: string; value: string } | { fileHeader: string; content: string }>) {
  const boundary = `b${randomBytes(8).toString('hex')}`;
  const body = parts.map((part) => 'name' in part
    ? `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`
    : `--${boundary}\r\nContent-Disposition: form-data; name="file"; ${part.fileHeader}\r\nContent-Type: application/octet-stream\r\n\r\n${part.content}\r\n`).join('') + `--${boundary}--\r\n`;
  return { body: Buffer.from(body, 'utf8'), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Text no field may store, and what one-line fields refuse on top. */
const CONTROLS = ['nul\u0000byte', 'bell\u0007', 'escape \u001b[2J', 'del\u007f', 'c1 \u0085 next line', 'c1 \u009b csi', 'line\u2028separator', 'paragraph\u2029separator'];
/** JSON carries it as an escape; a multipart form cannot (UTF-8 encoding replaces it on the way). */
const LONE_SURROGATE = 'lone \ud800 surrogate';
const JSON_CONTROLS = [...CONTROLS, LONE_SURROGATE];
const ONE_LINE_ONLY = ['two\nlines', 'windows\r\nlines', 'carriage\rreturn', 'tab\there', 'invoice\u202Eexe.pdf', 'isolate \u2066x\u2069'];
const BAD_VERSIONS = ['.', '..', '%', '?x', '%2e%2e', '1.0/2', 'a\\b', '1#2', '1.0 beta', '1.0\t', '1.0\n', '1&x=2', 'ünï', '__proto__', 'constructor', 'Prototype'];

describe('input rules: refused inputs answer 400 VALIDATION_ERROR and change nothing', () => {
  let app: TestApp;
  let customer: { customerId: string; apiKey: string };
  let applicationId: string;
  let fileId: string;

  before(async () => {
    app = await startTestApp({ workers: false });
    customer = await createCustomer(app);
    ({ applicationId } = await createApplication(app, { customerIds: [customer.customerId], description: 'Desktop client', tags: ['desktop'] }));
    ({ fileId } = await uploadSmallFile(app, { applicationId, version: '1.0.0', releaseNotes: 'First' }));
  });
  after(() => app?.close());

  /** Sends each request and checks it is refused on `field` with nothing changed. */
  async function expectEachRefused(cases: Array<[string, () => Promise<HttpResult>]>, field: string): Promise<void> {
    const before = await serviceState(app);
    for (const [label, send] of cases) {
      const result = await send();
      expect(result.status, `${label}: ${shown(result.body)}`).to.equal(400);
      expectValidationError(result, field);
    }
    expect(await serviceState(app)).to.deep.equal(before);
  }

  describe('applications', () => {
    it('POST refuses reserved ids, control characters in every text field, and one-line breaks in names and tags', async () => {
      const create = (body: Record<string, unknown>) => () => app.http.post('/v1/management/applications', { applicationId: `app-${randomBytes(4).toString('hex')}`, name: 'Fine', ...body });
      await expectEachRefused(['constructor', 'prototype', 'tostring', 'valueof', 'hasownproperty'].map((id) => [id, create({ applicationId: id })]), 'applicationId');
      await expectEachRefused([...JSON_CONTROLS, ...ONE_LINE_ONLY].map((name) => [shown(name), create({ name })]), 'name');
      await expectEachRefused([...JSON_CONTROLS, 'lone\rCR'].map((description) => [shown(description), create({ description })]), 'description');
      await expectEachRefused([...JSON_CONTROLS, ...ONE_LINE_ONLY].map((tag) => [shown(tag), create({ tags: ['fine', tag] })]), 'tags.1');
    });

    it('PATCH refuses the same, and the record stays as it was', async () => {
      const patch = (body: Record<string, unknown>) => () => app.http.patch(`/v1/management/applications/${applicationId}`, body);
      await expectEachRefused([...JSON_CONTROLS, ...ONE_LINE_ONLY].map((name) => [shown(name), patch({ name })]), 'name');
      await expectEachRefused([...JSON_CONTROLS, 'lone\rCR'].map((description) => [shown(description), patch({ description })]), 'description');
      await expectEachRefused(ONE_LINE_ONLY.map((tag) => [shown(tag), patch({ tags: [tag] })]), 'tags.0');
    });

    it('keeps line breaks and tabs in a description as sent', async () => {
      const description = 'Line one\r\nLine two\n\tindented, with right-to-left \u202Bembedding\u202C';
      const created = await app.http.post('/v1/management/applications', { applicationId: `multi-${randomBytes(4).toString('hex')}`, name: '  Trimmed  ', description });
      expect(created.status, shown(created.body)).to.equal(201);
      expect(created.body.data).to.include({ name: 'Trimmed', description });
      expect((await app.http.get(`/v1/management/applications/${created.body.data.applicationId}`)).body.data.description).to.equal(description);
    });

    it('counts lengths in characters (code points), as the API description does: an emoji is one', async () => {
      const create = (name: string) => app.http.post('/v1/management/applications', { applicationId: `chars-${randomBytes(4).toString('hex')}`, name });
      // 150 emoji are 300 UTF-16 units, and 150 characters of the 200 a name may have.
      const emoji = '\u{1F680}'.repeat(150);
      const created = await create(emoji);
      expect(created.status, shown(created.body)).to.equal(201);
      expect(created.body.data.name).to.equal(emoji);
      const astral = '\u{1D49C}'.repeat(200);
      expect((await create(astral)).status).to.equal(201);
      const refused = await create(`${astral}\u{1D49C}`);
      expectValidationError(refused, 'name');
      expect(refused.body.error.details).to.deep.include({ field: 'name', message: 'must be at most 200 characters' });
      // The same count in a PATCH and in a customer's name.
      expect((await app.http.patch(`/v1/management/applications/${applicationId}`, { description: '\u{1F600}'.repeat(2_000) })).status).to.equal(200);
      expectValidationError(await app.http.patch(`/v1/management/applications/${applicationId}`, { description: '\u{1F600}'.repeat(2_001) }), 'description');
      const customer = await app.http.post('/v1/management/customers', { name: emoji, tier: app.config.tiers[0] });
      expect(customer.status, shown(customer.body)).to.equal(201);
      // A form field too: the small upload's release notes at their most characters, 4 bytes each in UTF-8.
      const releaseNotes = '\u{1F600}'.repeat(20_000);
      await uploadSmallFile(app, { applicationId, version: '7.0.0-characters', releaseNotes });
      expect((await app.http.get(`/v1/management/applications/${applicationId}/versions`)).body.data.versions.find((v: { version: string }) => v.version === '7.0.0-characters').releaseNotes).to.equal(releaseNotes);
    });
  });

  describe('customers', () => {
    it('POST refuses reserved ids in any case, and control characters in names and notes', async () => {
      const create = (body: Record<string, unknown>) => () => app.http.post('/v1/management/customers', { name: 'Fine', tier: app.config.tiers[0], ...body });
      await expectEachRefused(['__proto__', '__PROTO__', 'constructor', 'Constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf']
        .map((customerId) => [customerId, create({ customerId })]), 'customerId');
      await expectEachRefused([...JSON_CONTROLS, ...ONE_LINE_ONLY].map((name) => [shown(name), create({ name })]), 'name');
      await expectEachRefused([...JSON_CONTROLS, 'lone\rCR'].map((notes) => [shown(notes), create({ notes })]), 'notes');
      expect((await app.http.get('/v1/management/customers/__proto__')).status).to.equal(404);
    });

    it('refuses customer and key ids no record can have in paths with 400 naming the parameter', async () => {
      await expectEachRefused(['a%2Fb', 'a.b', '%20x', 'x'.repeat(65)].map((id) => [id, () => app.http.get(`/v1/management/customers/${id}`)]), 'customerId');
      await expectEachRefused(['a.b', 'key%00', 'key%20x'].map((id) => [id, () => app.http.delete(`/v1/management/customers/${customer.customerId}/apikeys/${id}`)]), 'keyId');
    });

    it('PATCH refuses the same, and the record stays as it was', async () => {
      const patch = (body: Record<string, unknown>) => () => app.http.patch(`/v1/management/customers/${customer.customerId}`, body);
      await expectEachRefused([...JSON_CONTROLS, ...ONE_LINE_ONLY].map((name) => [shown(name), patch({ name })]), 'name');
      await expectEachRefused([...JSON_CONTROLS, 'lone\rCR'].map((notes) => [shown(notes), patch({ notes, tier: app.config.tiers[1] })]), 'notes');
    });
  });

  describe('uploads', () => {
    const upload = (fields: Parameters<typeof smallUploadForm>[0]) => () => app.http.request('POST', '/v1/management/upload', { body: smallUploadForm(fields) });

    it('the small upload refuses versions with path or URL meaning, reserved words and control characters, keeping no bytes', async () => {
      await expectEachRefused(BAD_VERSIONS.map((version) => [shown(version), upload({ applicationId, version })]), 'version');
      await expectEachRefused(CONTROLS.map((releaseNotes) => [shown(releaseNotes), upload({ applicationId, version: '2.0.0', releaseNotes })]), 'releaseNotes');
    });

    it('the small upload refuses file names with control characters or bidirectional overrides', async () => {
      const named = (fileHeader: string) => () => {
        const form = rawForm([{ name: 'applicationId', value: applicationId }, { name: 'version', value: '2.0.0' }, { fileHeader, content: 'bytes' }]);
        return app.http.request('POST', '/v1/management/upload', form);
      };
      await expectEachRefused([
        ['NUL', named("filename*=UTF-8''setup%00.exe")],
        ['escape', named("filename*=UTF-8''setup%1B.exe")],
        ['C1', named("filename*=UTF-8''setup%C2%85.exe")],
        ['right-to-left override', named("filename*=UTF-8''invoice%E2%80%AEexe.pdf")],
        ['line separator', named("filename*=UTF-8''a%E2%80%A8b.exe")],
      ], 'file');
    });

    it('the small upload refuses a form field named __proto__ instead of dropping it', async () => {
      const form = rawForm([
        { name: 'applicationId', value: applicationId },
        { name: 'version', value: '3.0.0' },
        { name: '__proto__', value: 'x' },
        { fileHeader: 'filename="setup.exe"', content: 'bytes' },
      ]);
      await expectEachRefused([['__proto__ field', () => app.http.request('POST', '/v1/management/upload', form)]], '__proto__');
    });

    it('large-url refuses the same versions, file names, notes and content types that are not header values, reserving nothing', async () => {
      const request = (body: Record<string, unknown>) => () =>
        app.http.post('/v1/management/upload/large-url', { applicationId, version: '4.0.0', fileName: 'big.bin', fileSize: 100, ...body });
      await expectEachRefused(BAD_VERSIONS.map((version) => [shown(version), request({ version })]), 'version');
      await expectEachRefused([...JSON_CONTROLS, ...ONE_LINE_ONLY].map((fileName) => [shown(fileName), request({ fileName })]), 'fileName');
      await expectEachRefused(JSON_CONTROLS.map((releaseNotes) => [shown(releaseNotes), request({ releaseNotes })]), 'releaseNotes');
      await expectEachRefused(['text/plain;\r\nX-Injected: 1', 'text/plain; a="\n"', 'text/plain; a="\u0000"', 'text/plain\u2028; a=b']
        .map((contentType) => [shown(contentType), request({ contentType })]), 'contentType');
    });

    it('large-complete refuses upload ids and versions no session can have', async () => {
      const complete = (body: Record<string, unknown>) => () =>
        app.http.post('/v1/management/upload/large-complete', { uploadId: 'upl_x', applicationId, version: '4.0.0', fileName: 'big.bin', fileSize: 100, ...body });
      await expectEachRefused(['../x', 'upl_%00', 'upl\u0000', 'upl x'].map((uploadId) => [shown(uploadId), complete({ uploadId })]), 'uploadId');
      await expectEachRefused(['1.0\n', '1.0 x', 'a/b'].map((version) => [shown(version), complete({ version })]), 'version');
    });
  });

  describe('versions', () => {
    it('takes SemVer and date versions end to end: upload, patch by path, download by query (+ escaped as %2B)', async () => {
      for (const version of ['v1.2.3-beta.1+build.5', '1.0.0-x.7.z.92', '2024.01.15', 'build-812', '1.0~rc1']) {
        await uploadSmallFile(app, { applicationId, version });
        const patched = await app.http.patch(`/v1/management/applications/${applicationId}/versions/${encodeURIComponent(version)}`, { releaseNotes: version });
        expect(patched.status, `${version}: ${shown(patched.body)}`).to.equal(200);
        const url = await app.http.get(`/v1/downloads/url?applicationId=${applicationId}&version=${encodeURIComponent(version)}`, { key: customer.apiKey });
        expect(url.status, `${version}: ${shown(url.body)}`).to.equal(200);
      }
      // Unescaped in a query string, + is a space, and no version holds one.
      const bare = await app.http.get(`/v1/downloads/url?applicationId=${applicationId}&version=v1.2.3-beta.1+build.5`, { key: customer.apiKey });
      expectValidationError(bare, 'version');
    });

    it('reads + in a path as itself (a path is not a query string): PATCH .../versions/1.0.0+build names that version', async () => {
      await uploadSmallFile(app, { applicationId, version: '7.0.0+build.9' });
      const patched = await app.http.patch(`/v1/management/applications/${applicationId}/versions/7.0.0+build.9`, { releaseNotes: 'plus' });
      expect(patched.status, shown(patched.body)).to.equal(200);
      expect(patched.body.data.version).to.equal('7.0.0+build.9');
    });

    it('PATCH refuses control characters in release notes, and the version stays as it was', async () => {
      const patch = (releaseNotes: string) => () => app.http.patch(`/v1/management/applications/${applicationId}/versions/1.0.0`, { releaseNotes });
      await expectEachRefused([...JSON_CONTROLS, 'lone\rCR'].map((notes) => [shown(notes), patch(notes)]), 'releaseNotes');
      const kept = await app.http.patch(`/v1/management/applications/${applicationId}/versions/1.0.0`, { releaseNotes: '## 1.0.0\r\n\n- first\tof many' });
      expect(kept.status).to.equal(200);
      expect(kept.body.data.releaseNotes).to.equal('## 1.0.0\r\n\n- first\tof many');
    });
  });

  describe('downloads', () => {
    it('GET /downloads/url and POST /downloads/share refuse versions and file ids nothing can be stored under, recording no download', async () => {
      const url = (query: string) => () => app.http.get(`/v1/downloads/url?applicationId=${applicationId}&${query}`, { key: customer.apiKey });
      await expectEachRefused([['NUL', url('version=1%00')], ['space', url('version=1.0%200')], ['slash', url('version=1%2F0')], ['line feed', url('version=1.0.0%0A')]], 'version');
      await expectEachRefused([['NUL', url(`version=1.0.0&fileId=${fileId}%00`)], ['dots', url('version=1.0.0&fileId=..')], ['slash', url('version=1.0.0&fileId=a%2Fb')]], 'fileId');
      const share = (body: Record<string, unknown>) => () => app.http.post('/v1/downloads/share', { applicationId, version: '1.0.0', ...body }, { key: customer.apiKey });
      await expectEachRefused([['line feed', share({ version: '1.0.0\n' })], ['space', share({ version: '1 0' })]], 'version');
      await expectEachRefused([['dots', share({ fileId: '../x' })], ['NUL', share({ fileId: `${fileId}\u0000` })]], 'fileId');
    });
  });

  describe('statistics', () => {
    it('refuses a version filter nothing can be stored under', async () => {
      const stats = (version: string) => () => app.http.get(`/v1/applications/${applicationId}/stats?version=${version}`);
      await expectEachRefused([['NUL', stats('%00')], ['line feed', stats('1%0A')], ['slash', stats('1%2F0')]], 'version');
    });
  });

  describe('path parameters', () => {
    it('answer 400 or 404 in the envelope, never a 5xx, whatever they hold', async () => {
      const odd = ['%00', '%0A', '%25', '%', '%E0%A4%A', '__proto__', 'constructor', '%3Fx', '%23', '%20', '%5C', '%E2%80%AE', `${'x'.repeat(300)}`];
      const requests: Array<[string, string]> = [];
      for (const p of odd) {
        requests.push(
          ['GET', `/v1/management/customers/${p}`],
          ['PATCH', `/v1/management/customers/${p}`],
          ['GET', `/v1/management/customers/${p}/apikeys`],
          ['POST', `/v1/management/customers/${p}/apikeys`],
          ['DELETE', `/v1/management/customers/${customer.customerId}/apikeys/${p}`],
          ['GET', `/v1/management/applications/${p}`],
          ['PATCH', `/v1/management/applications/${p}`],
          ['DELETE', `/v1/management/applications/${p}`],
          ['POST', `/v1/management/applications/${p}/restore`],
          ['GET', `/v1/management/applications/${p}/versions`],
          ['PATCH', `/v1/management/applications/${applicationId}/versions/${p}`],
          ['GET', `/v1/management/uploads/${p}`],
          ['GET', `/v1/applications/${p}/stats`],
          ['GET', `/v1/downloads/share/${p}`],
        );
      }
      const before = await serviceState(app);
      for (const [method, path] of requests) {
        const body = method === 'PATCH' ? { releaseNotes: 'x' } : undefined;
        const result = await app.http.request(method, path, { json: body });
        expect([400, 404], `${method} ${path}: ${result.status} ${shown(result.body)}`).to.include(result.status);
        expect(result.body?.success, `${method} ${path}`).to.equal(false);
        expect(['VALIDATION_ERROR', 'NOT_FOUND'], `${method} ${path}`).to.include(result.body.error.code);
      }
      const revoke = await app.http.delete('/v1/downloads/share/%00', { key: customer.apiKey });
      expect(revoke.status).to.equal(404);
      expect(await serviceState(app)).to.deep.equal(before);
    });
  });
});

describe('input rules: records stored under earlier rules stay readable and patchable', () => {
  let app: TestApp;
  const customerId = '__proto__';
  const applicationId = 'constructor';
  const customerName = 'Legacy\u0000Customer\r\nLtd';
  const applicationName = 'Legacy\u0000App\u202E';
  const description = 'lone\rCR';
  const tags = ['multi\nline', 'toString'];
  /** Versions earlier rules accepted and the new ones refuse; two are names of object properties. */
  const versions = ['..', '.', '%', '?x', '#1', '__proto__', 'constructor', 'toString'];
  const content = randomBytes(2048);
  let apiKey: string;

  before(async () => {
    app = await startTestApp({ workers: false });
    const { store, storage } = app.core;
    const now = new Date();
    await store.accounts.createCustomer({ customerId, name: customerName, tier: 'standard', isActive: true, notes: 'nul\u0000 and \u0085', updatesUntil: null, versionRange: null, createdAt: now, updatedAt: now });
    const issued = issueCustomerKey(customerId);
    apiKey = issued.apiKey;
    await store.accounts.createApiKey({ keyId: newId('key'), customerId, keyHash: issued.keyHash, prefix: issued.prefix, createdAt: now, lastUsedAt: null, revokedAt: null });
    await store.applications.createApplication({
      applicationId, name: applicationName, description, tags, customerIds: [customerId], updateSigningKey: null, sparklePublicKey: null, retiredSigningKeys: [], defaultVersionStatus: 'published', licenceText: null, licenceRevision: null, displayName: null, accentColour: null, supportUrl: null, logo: null, isActive: true, createdAt: now, updatedAt: now, deletedAt: null,
    });
    for (const version of versions) {
      await store.versions.upsertVersion(applicationId, version, { releaseNotes: `notes of ${version}\u0000`, requiredTier: null }, now);
      const fileId = newId('fil');
      const storageKey = `files/${applicationId}/${fileId}`;
      await storage.put(storageKey, Readable.from([content]));
      const file: FileRecord = {
        fileId, applicationId, version, fileName: `legacy \u0085${version}.bin`, fileSize: content.length,
        // A content type earlier rules let through: a line break is not valid in a header.
        contentType: 'text/plain;\n charset=utf-8', checksum: `sha256:${sha256(content)}`,
        fileType: 'MAIN', status: 'available', storageKey, createdAt: now, updatedAt: now,
      };
      await store.versions.insertFile(file);
    }
  });
  after(() => app?.close());

  it('reads and lists the customer, and patches fields other than its name', async () => {
    const read = await app.http.get(`/v1/management/customers/${customerId}`);
    expect(read.status, shown(read.body)).to.equal(200);
    expect(read.body.data).to.include({ customerId, name: customerName, notes: 'nul\u0000 and \u0085' });
    const listed = (await app.http.get('/v1/management/customers?pageSize=100')).body.data.customers;
    expect(listed.map((c: { customerId: string }) => c.customerId)).to.include(customerId);

    const tier = await app.http.patch(`/v1/management/customers/${customerId}`, { tier: 'premium' });
    expect(tier.status, shown(tier.body)).to.equal(200);
    expect(tier.body.data).to.include({ customerId, name: customerName, tier: 'premium' });
    const notes = await app.http.patch(`/v1/management/customers/${customerId}`, { notes: 'clean now', isActive: true });
    expect(notes.status, shown(notes.body)).to.equal(200);
    expect(notes.body.data).to.include({ name: customerName, notes: 'clean now' });
    const key = await app.http.post(`/v1/management/customers/${customerId}/apikeys`, {});
    expect(key.status, shown(key.body)).to.equal(201);
    expect((await app.http.get(`/v1/management/customers/${customerId}/apikeys`)).body.data.apiKeys).to.have.length(2);
    // A name that is not touched by the patch is kept; a new one follows the rules.
    const rename = await app.http.patch(`/v1/management/customers/${customerId}`, { name: 'Still\u0000bad' });
    expect(rename.status).to.equal(400);
  });

  it('reads and lists the application with its versions, and patches fields other than its name', async () => {
    const read = await app.http.get(`/v1/management/applications/${applicationId}`);
    expect(read.status, shown(read.body)).to.equal(200);
    expect(read.body.data).to.include({ applicationId, name: applicationName, description });
    expect(read.body.data.tags).to.deep.equal(tags);
    expect(read.body.data.versions.map((v: { version: string }) => v.version)).to.have.members(versions);
    const byTag = (await app.http.get('/v1/management/applications?tag=toString')).body.data.applications;
    expect(byTag.map((a: { applicationId: string }) => a.applicationId)).to.deep.equal([applicationId]);
    const listedVersions = await app.http.get(`/v1/management/applications/${applicationId}/versions`);
    expect(listedVersions.body.data.versions).to.have.length(versions.length);

    const patched = await app.http.patch(`/v1/management/applications/${applicationId}`, { description: 'Now one line' });
    expect(patched.status, shown(patched.body)).to.equal(200);
    expect(patched.body.data).to.include({ name: applicationName, description: 'Now one line' });
    expect(patched.body.data.tags).to.deep.equal(tags);
  });

  it('patches versions whose strings the rules now refuse, by their escaped path', async () => {
    // `.` and `..` are dot segments: URL clients remove them from paths, so those two are reached by query only.
    for (const version of versions.filter((v) => v !== '.' && v !== '..')) {
      const patched = await app.http.patch(`/v1/management/applications/${applicationId}/versions/${encodeURIComponent(version)}`, { requiredTier: null });
      expect(patched.status, `${version}: ${shown(patched.body)}`).to.equal(200);
      expect(patched.body.data).to.include({ version, releaseNotes: `notes of ${version}\u0000` });
    }
  });

  it('downloads every such version, and counts each under its own key in the statistics', async () => {
    for (const version of versions) {
      const issued = await app.http.get(`/v1/downloads/url?applicationId=${applicationId}&version=${encodeURIComponent(version)}`, { key: apiKey });
      expect(issued.status, `${version}: ${shown(issued.body)}`).to.equal(200);
      expect(issued.body.data.fileName).to.equal(`legacy \u0085${version}.bin`);
      const fetched = await app.http.get(issued.body.data.downloadUrl, { key: null });
      expect(fetched.status, version).to.equal(200);
      expect(fetched.headers.get('content-type'), version).to.equal('application/octet-stream');
      expect(sha256(fetched.raw)).to.equal(sha256(content));
      const share = await app.http.post('/v1/downloads/share', { applicationId, version }, { key: apiKey });
      expect(share.status, `${version}: ${shown(share.body)}`).to.equal(201);
    }
    while ((await app.core.store.activity.rollupEvents(1_000)) > 0);
    const stats = await app.http.get(`/v1/applications/${applicationId}/stats`);
    expect(stats.status).to.equal(200);
    expect(stats.body.data.totalDownloads).to.equal(versions.length);
    const counted = Object.entries(stats.body.data.downloadsByVersion).sort(([a], [b]) => (a < b ? -1 : 1));
    expect(counted).to.deep.equal(versions.map((v) => [v, 1]).sort(([a], [b]) => (a < b ? -1 : 1)));
    const one = await app.http.get(`/v1/applications/${applicationId}/stats?version=${encodeURIComponent('?x')}`);
    expect(one.body.data.totalDownloads).to.equal(1);
  });

  it('takes no new file for such a version: new uploads follow the rules', async () => {
    const refused = await app.http.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId, version: '%', fileName: 'extra.sig', fileType: 'SIGNATURE' }) });
    expectValidationError(refused, 'version');
  });
});
