import { expect } from 'chai';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

describe('applications (management API)', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ workers: false });
  });
  after(() => app.close());

  describe('POST /v1/management/applications', () => {
    it('creates an application and returns the record with 201', async () => {
      const customer = await createCustomer(app);
      const res = await app.http.post('/v1/management/applications', {
        applicationId: 'desktop-client',
        name: 'Desktop client',
        description: 'The installer',
        tags: ['windows', 'desktop'],
        customerIds: [customer.customerId],
      });
      expect(res.status).to.equal(201);
      expect(res.body.success).to.equal(true);
      expect(res.body.data).to.include({ applicationId: 'desktop-client', name: 'Desktop client', description: 'The installer', isActive: true });
      expect(res.body.data.tags).to.deep.equal(['windows', 'desktop']);
      expect(res.body.data.customerIds).to.deep.equal([customer.customerId]);
      expect(new Date(res.body.data.createdAt).toISOString()).to.equal(res.body.data.createdAt);
    });

    it('refuses invalid ids, missing names and unknown fields with field details', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ applicationId: 'Upper', name: 'x' }, 'applicationId'],
        [{ applicationId: 'a--b', name: 'x' }, 'applicationId'],
        [{ applicationId: '-a', name: 'x' }, 'applicationId'],
        [{ applicationId: 'a'.repeat(65), name: 'x' }, 'applicationId'],
        [{ applicationId: 'ok-id' }, 'name'],
        [{ applicationId: 'ok-id', name: '   ' }, 'name'],
        [{ applicationId: 'ok-id', name: 'x', tags: 'windows' }, 'tags'],
        [{ applicationId: 'ok-id', name: 'x', colour: 'blue' }, 'colour'],
      ];
      for (const [body, field] of cases) {
        const res = await app.http.post('/v1/management/applications', body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
        expect(res.body.error.details.map((d: { field: string }) => d.field)).to.include(field);
      }
      expect((await app.http.get('/v1/management/applications/ok-id')).status).to.equal(404);
    });

    it('accepts an id of exactly 64 characters', async () => {
      const res = await app.http.post('/v1/management/applications', { applicationId: 'a'.repeat(64), name: 'Long' });
      expect(res.status).to.equal(201);
    });

    it('refuses unknown customerIds with 400', async () => {
      const res = await app.http.post('/v1/management/applications', { applicationId: 'with-ghost', name: 'x', customerIds: ['ghost'] });
      expect(res.status).to.equal(400);
      expect(res.body.error.details[0]).to.deep.include({ field: 'customerIds' });
      expect(res.body.error.details[0].message).to.contain('ghost');
    });

    it('answers 409 for a duplicate id, even of a soft-deleted application', async () => {
      const created = await createApplication(app);
      expect((await app.http.post('/v1/management/applications', { applicationId: created.applicationId, name: 'again' })).status).to.equal(409);
      await app.http.delete(`/v1/management/applications/${created.applicationId}`);
      const res = await app.http.post('/v1/management/applications', { applicationId: created.applicationId, name: 'again' });
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('CONFLICT');
    });
  });

  describe('listing, reading and updating', () => {
    it('lists with pagination and filters by tag and customer', async () => {
      const customer = await createCustomer(app);
      const tag = `tag-${Date.now()}`;
      const tagged = await createApplication(app, { tags: [tag] });
      const owned = await createApplication(app, { customerIds: [customer.customerId] });
      const byTag = await app.http.get(`/v1/management/applications?tag=${tag}`);
      expect(byTag.status).to.equal(200);
      expect(byTag.body.data.applications.map((a: { applicationId: string }) => a.applicationId)).to.deep.equal([tagged.applicationId]);
      expect(byTag.body.data.pagination).to.deep.equal({ page: 1, pageSize: 20, total: 1, totalPages: 1 });
      const byCustomer = await app.http.get(`/v1/management/applications?customerId=${customer.customerId}`);
      expect(byCustomer.body.data.applications.map((a: { applicationId: string }) => a.applicationId)).to.deep.equal([owned.applicationId]);

      const all = await app.http.get('/v1/management/applications?pageSize=1&page=2');
      expect(all.body.data.applications).to.have.length(1);
      expect(all.body.data.pagination.page).to.equal(2);
      expect(all.body.data.pagination.total).to.be.greaterThan(1);
    });

    it('refuses bad paging parameters', async () => {
      for (const query of ['page=0', 'pageSize=0', 'pageSize=101', 'page=abc', 'includeDeleted=maybe', 'sort=name']) {
        const res = await app.http.get(`/v1/management/applications?${query}`);
        expect(res.status, query).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      }
    });

    it('reads one application with its versions and files', async () => {
      const created = await createApplication(app);
      await uploadSmallFile(app, { applicationId: created.applicationId, version: '1.0.0', fileName: 'a.exe' });
      await uploadSmallFile(app, { applicationId: created.applicationId, version: '1.0.0', fileName: 'b.dll', fileType: 'DEPENDENCY' });
      const res = await app.http.get(`/v1/management/applications/${created.applicationId}`);
      expect(res.status).to.equal(200);
      expect(res.body.data.versions).to.have.length(1);
      expect(res.body.data.versions[0].files.map((f: { fileName: string }) => f.fileName)).to.deep.equal(['a.exe', 'b.dll']);
      expect(JSON.stringify(res.body)).not.to.contain('storageKey');
    });

    it('patches only the fields given', async () => {
      const created = await createApplication(app, { description: 'before', tags: ['x'] });
      const res = await app.http.patch(`/v1/management/applications/${created.applicationId}`, { name: 'Renamed' });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ name: 'Renamed', description: 'before' });
      expect(res.body.data.tags).to.deep.equal(['x']);
      expect((await app.http.patch(`/v1/management/applications/${created.applicationId}`, {})).status).to.equal(400);
      expect((await app.http.patch(`/v1/management/applications/${created.applicationId}`, { isActive: false })).status).to.equal(400);
      expect((await app.http.patch(`/v1/management/applications/${created.applicationId}`, { customerIds: ['nobody'] })).status).to.equal(400);
      expect((await app.http.patch('/v1/management/applications/unknown-app', { name: 'x' })).status).to.equal(404);
    });
  });

  describe('soft delete and restore', () => {
    it('hides a deleted application, keeps its data, and restores it', async () => {
      const created = await createApplication(app);
      await uploadSmallFile(app, { applicationId: created.applicationId, version: '2.0' });
      const del = await app.http.delete(`/v1/management/applications/${created.applicationId}`);
      expect(del.status).to.equal(200);
      expect(del.body.data.applicationId).to.equal(created.applicationId);
      expect(del.body.data.message).to.be.a('string');
      expect(Date.parse(del.body.data.deletedAt)).to.be.closeTo(Date.now(), 5_000);

      expect((await app.http.delete(`/v1/management/applications/${created.applicationId}`)).status).to.equal(404);
      expect((await app.http.get(`/v1/management/applications/${created.applicationId}`)).status).to.equal(404);
      const listed = await app.http.get('/v1/management/applications?pageSize=100');
      expect(listed.body.data.applications.map((a: { applicationId: string }) => a.applicationId)).not.to.include(created.applicationId);
      const withDeleted = await app.http.get('/v1/management/applications?pageSize=100&includeDeleted=true');
      const hidden = withDeleted.body.data.applications.find((a: { applicationId: string }) => a.applicationId === created.applicationId);
      expect(hidden).to.include({ isActive: false });
      const read = await app.http.get(`/v1/management/applications/${created.applicationId}?includeDeleted=true`);
      expect(read.body.data.versions).to.have.length(1);

      const restored = await app.http.post(`/v1/management/applications/${created.applicationId}/restore`);
      expect(restored.status).to.equal(200);
      expect(restored.body.data).to.include({ isActive: true, deletedAt: null });
      expect((await app.http.post(`/v1/management/applications/${created.applicationId}/restore`)).status).to.equal(409);
      expect((await app.http.get(`/v1/management/applications/${created.applicationId}/versions`)).body.data.versions).to.have.length(1);
    });
  });

  describe('versions', () => {
    it('lists versions newest first and patches tier and release notes', async () => {
      const created = await createApplication(app);
      await uploadSmallFile(app, { applicationId: created.applicationId, version: '1.0' });
      await uploadSmallFile(app, { applicationId: created.applicationId, version: '1.1', releaseNotes: 'fixes' });
      const list = await app.http.get(`/v1/management/applications/${created.applicationId}/versions`);
      expect(list.body.data.versions.map((v: { version: string }) => v.version)).to.deep.equal(['1.1', '1.0']);
      expect(list.body.data.versions[0].releaseNotes).to.equal('fixes');

      const patched = await app.http.patch(`/v1/management/applications/${created.applicationId}/versions/1.0`, { requiredTier: 'premium' });
      expect(patched.status).to.equal(200);
      expect(patched.body.data).to.include({ requiredTier: 'premium', releaseNotes: null });
      const cleared = await app.http.patch(`/v1/management/applications/${created.applicationId}/versions/1.0`, { requiredTier: null, releaseNotes: 'n' });
      expect(cleared.body.data).to.include({ requiredTier: null, releaseNotes: 'n' });
      expect((await app.http.patch(`/v1/management/applications/${created.applicationId}/versions/1.0`, { requiredTier: 'gold' })).status).to.equal(400);
      expect((await app.http.patch(`/v1/management/applications/${created.applicationId}/versions/9.9`, { releaseNotes: 'x' })).status).to.equal(404);
    });
  });
});
