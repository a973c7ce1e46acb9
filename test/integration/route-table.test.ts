import { expect } from 'chai';
import { type Route, takesIdempotencyKey } from '../../gateway/http/route';
import { createApplication, uploadSmallFile } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/** Every route in the gateway's route table, driven from the table itself. */
describe('the route table', () => {
  let app: TestApp;
  let routes: readonly Route[];
  const values: Record<string, string> = { version: '1.0.0', key: 'files/some/object', platform: 'linux', arch: 'x86_64' };
  let customerKey: string;

  before(async () => {
    app = await startTestApp({ workers: false });
    routes = app.gateway.gateway.routes;
    const created = await app.http.post('/v1/management/customers', { name: 'Route table', tier: 'standard' });
    ({ customerId: values.customerId, keyId: values.keyId, apiKey: customerKey } = created.body.data);
    ({ applicationId: values.applicationId } = await createApplication(app, { customerIds: [values.customerId] }));
    await uploadSmallFile(app, { applicationId: values.applicationId, version: '1.0.0' });
    const large = await app.http.post('/v1/management/upload/large-url', { applicationId: values.applicationId, version: '2.0.0', fileName: 'big.bin', fileSize: 100 });
    values.uploadId = large.body.data.uploadId;
    const share = await app.http.post('/v1/downloads/share', { applicationId: values.applicationId, version: '1.0.0' }, { key: customerKey });
    values.token = share.body.data.token;
  });
  after(() => app?.close());

  const keyFor = (route: Route) => ({ admin: app.adminKey, customer: customerKey, key: customerKey, metrics: app.config.metricsToken ?? null, none: null })[route.guard];
  const pathOf = (route: Route) => route.path.replace(/:(\w+)(\([^)]*\))?/g, (_, name: string) => encodeURIComponent(values[name]));

  it('holds every route the gateway serves, each with a guard, a summary and a response', () => {
    expect(routes.length).to.be.at.least(25);
    for (const route of routes) {
      expect(route.summary, route.path).to.be.a('string').that.is.not.empty;
      expect(['admin', 'customer', 'key', 'none'], route.path).to.include(route.guard);
      expect(route.response, route.path).to.exist;
    }
  });

  it('refuses an unknown query parameter on every route with 400 VALIDATION_ERROR, changing nothing', async () => {
    const before = {
      application: (await app.http.get(`/v1/management/applications/${values.applicationId}`)).body.data,
      customer: (await app.http.get(`/v1/management/customers/${values.customerId}`)).body.data,
      keys: (await app.http.get(`/v1/management/customers/${values.customerId}/apikeys`)).body.data,
      upload: (await app.http.get(`/v1/management/uploads/${values.uploadId}`)).body.data,
    };
    for (const route of routes) {
      const where = `${route.method.toUpperCase()} ${route.path}`;
      const json = ['post', 'put', 'patch'].includes(route.method) && route.body !== undefined && !('kind' in route.body) ? {} : undefined;
      const response = await app.http.request(route.method.toUpperCase(), `${pathOf(route)}?bogus=1`, {
        key: keyFor(route),
        ...(json ? { json } : {}),
      });
      expect(response.status, `${where}: ${response.raw}`).to.equal(400);
      expect(response.body.error.code, where).to.equal('VALIDATION_ERROR');
      expect(response.body.error.details, where).to.deep.include({ field: 'bogus', message: 'is not a known field' });
    }
    expect((await app.http.get(`/v1/management/applications/${values.applicationId}`)).body.data).to.deep.equal(before.application);
    expect((await app.http.get(`/v1/management/customers/${values.customerId}`)).body.data).to.deep.equal(before.customer);
    expect((await app.http.get(`/v1/management/customers/${values.customerId}/apikeys`)).body.data).to.deep.equal(before.keys);
    expect((await app.http.get(`/v1/management/uploads/${values.uploadId}`)).body.data).to.deep.equal(before.upload);
    expect((await app.http.get(`/v1/downloads/share/${values.token}`, { key: null })).status).to.equal(302);
  });

  it('checks an Idempotency-Key with the input of every POST route that needs a key, and ignores it on every other route', async () => {
    const taking: string[] = [];
    for (const route of routes) {
      const where = `${route.method.toUpperCase()} ${route.path}`;
      const json = ['post', 'put', 'patch'].includes(route.method) && route.body !== undefined && !('kind' in route.body) ? {} : undefined;
      const response = await app.http.request(route.method.toUpperCase(), `${pathOf(route)}?bogus=1`, {
        key: keyFor(route),
        headers: { 'idempotency-key': 'not a key' },
        ...(json ? { json } : {}),
      });
      expect(response.status, `${where}: ${response.raw}`).to.equal(400);
      const fields = response.body.error.details.map((detail: { field: string }) => detail.field);
      expect(fields, where).to.include('bogus');
      expect(fields.includes('Idempotency-Key'), where).to.equal(takesIdempotencyKey(route));
      if (takesIdempotencyKey(route)) taking.push(where);
    }
    expect(taking).to.include.members(['POST /v1/management/customers', 'POST /v1/downloads/share', 'POST /v1/management/upload']);
  });

  it('refuses a query that is only an object property name (__proto__, constructor) on every route', async () => {
    for (const route of routes) {
      for (const name of ['__proto__', 'constructor']) {
        const where = `${route.method.toUpperCase()} ${route.path}?${name}`;
        const json = ['post', 'put', 'patch'].includes(route.method) && route.body !== undefined && !('kind' in route.body) ? {} : undefined;
        const response = await app.http.request(route.method.toUpperCase(), `${pathOf(route)}?${name}`, { key: keyFor(route), ...(json ? { json } : {}) });
        expect(response.status, `${where}: ${response.raw}`).to.equal(400);
        expect(response.body.error.details, where).to.deep.include({ field: name, message: 'is not a known field' });
      }
    }
  });

  it('refuses an unknown parameter next to valid ones, on the download lane too', async () => {
    const query = `applicationId=${values.applicationId}&version=1.0.0`;
    expect((await app.http.get(`/v1/downloads/url?${query}`, { key: customerKey })).status).to.equal(200);
    for (const path of [`/v1/downloads/url?${query}&bogus=1`, `/v1/downloads/url/?${query}&bogus=1`]) {
      const refused = await app.http.get(path, { key: customerKey });
      expect(refused.status, path).to.equal(400);
      expect(refused.body.error.details).to.deep.equal([{ field: 'bogus', message: 'is not a known field' }]);
    }
    const link = await app.http.get(`/v1/downloads/share/${values.token}?utm_source=mail`, { key: null });
    expect(link.status).to.equal(400);
    expect(link.body.error.details).to.deep.equal([{ field: 'utm_source', message: 'is not a known field' }]);
  });
});
