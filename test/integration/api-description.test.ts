import { expect } from 'chai';
import SwaggerParser from '@apidevtools/swagger-parser';
import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import { openApiPath } from '../../gateway/http/api-description';
import { ERROR_CODES } from '../../shared/errors';
import { ApiResponseCheck, ReceivedResponse } from '../support/api-responses';
import { startTestApp, TestApp } from '../support/test-app';

type Operations = Record<string, Record<string, { security: unknown[]; requestBody?: { content: Record<string, { schema: Record<string, any> }> }; responses: Record<string, unknown> }>>;

/** GET /v1/openapi.json: the API description generated from the route table. */
describe('the API description', () => {
  let app: TestApp;
  let document: { openapi: string; servers: { url: string }[]; paths: Operations; components: { schemas: Record<string, any>; securitySchemes: Record<string, unknown> } };

  before(async () => {
    // Every route mounted: the embedded store's signed URLs, and the metrics with a token.
    app = await startTestApp({ workers: false, env: { METRICS_TOKEN: randomBytes(24).toString('hex') } });
    const response = await app.http.get('/v1/openapi.json', { key: null });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    document = response.body;
  });
  after(() => app?.close());

  it('is OpenAPI 3.1 that a standard validator accepts, served without a key', async () => {
    expect(document.openapi).to.equal('3.1.0');
    expect(document.servers).to.deep.equal([{ url: app.config.publicBaseUrl }]);
    await SwaggerParser.validate(structuredClone(document) as never);
  });

  it('describes every route the router registered, and nothing else', () => {
    const koaRouter = app.gateway.gateway.app.middleware.map((middleware) => (middleware as { router?: Router }).router).find(Boolean) as Router;
    // The router answers HEAD for every GET: the description says so once, in its info.
    const registered = koaRouter.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m.toLowerCase()} ${openApiPath(layer.path as string)}`));
    const described = Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`));
    expect(described.sort()).to.deep.equal([...new Set(registered)].sort());
    expect(described).to.include.members(['get /v1/openapi.json', 'get /metrics', 'get /v1/objects/{key}', 'put /v1/objects/{key}']);
  });

  it("gives each route its guard's security scheme, and none to routes without a key", () => {
    expect(Object.keys(document.components.securitySchemes).sort()).to.deep.equal(['adminKey', 'customerKey', 'metricsToken']);
    for (const route of app.gateway.gateway.routes) {
      const operation = document.paths[openApiPath(route.path)][route.method];
      const expected = { admin: [{ adminKey: [route.scope] }], customer: [{ customerKey: [] }], metrics: [{ metricsToken: [] }], none: [] }[route.guard];
      expect(operation.security, `${route.method} ${route.path}`).to.deep.equal(expected);
    }
  });

  it('describes the streamed bodies: the small upload as a form with its file, signed PUTs as raw bytes', () => {
    const form = document.paths['/v1/management/upload'].post.requestBody?.content['multipart/form-data'].schema;
    expect(form?.required).to.include.members(['applicationId', 'version', 'file']);
    expect(form?.properties.file).to.include({ type: 'string', contentMediaType: 'application/octet-stream' });
    expect(document.paths['/v1/objects/{key}'].put.requestBody?.content).to.have.key('application/octet-stream');
  });

  it('lists every error code, each failure status with its own codes', () => {
    expect(document.components.schemas.Error.properties.error.properties.code.enum).to.have.members(Object.keys(ERROR_CODES));
    for (const [code, status] of Object.entries(ERROR_CODES)) {
      const perStatus = document.components.schemas[`Error${status}`];
      if (perStatus) expect(perStatus.properties.error.properties.code.enum, code).to.include(code);
    }
    const creation = document.paths['/v1/management/applications'].post.responses;
    expect(creation).to.include.keys('201', '400', '401', '403', '409', '413', '415', '422', '429', '503', 'default');
    expect(document.paths['/healthz'].get.responses).not.to.have.key('429');
  });

  it('describes the Idempotency-Key header where a route takes one, and only there', () => {
    const headerOf = (operation: { parameters?: Array<{ in: string; name: string }> }) => (operation.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    expect(headerOf(document.paths['/v1/management/applications'].post as never)).to.deep.equal(['Idempotency-Key']);
    expect(headerOf(document.paths['/v1/downloads/share'].post as never)).to.deep.equal(['Idempotency-Key']);
    // The small upload streams its body, which a repeat could not be compared with: no key there.
    expect(headerOf(document.paths['/v1/management/upload'].post as never)).to.deep.equal([]);
    expect(headerOf(document.paths['/v1/management/applications'].get as never)).to.deep.equal([]);
  });

  describe('the check every test response goes through', () => {
    let check: ApiResponseCheck;
    /** A customer as the service answers its creation: the valid sample the refused ones are made from. */
    let customer: Record<string, unknown>;
    const received = (overrides: Partial<ReceivedResponse>): ReceivedResponse => ({
      method: 'POST', path: '/v1/management/customers', status: 201, contentType: 'application/json; charset=utf-8', body: { success: true, data: customer }, hasBody: true, ...overrides,
    });

    before(async () => {
      check = await ApiResponseCheck.of(document);
      const created = await app.http.post('/v1/management/customers', { name: 'Sample', tier: 'standard' });
      expect(created.status).to.equal(201);
      customer = created.body.data;
    });

    it('passes what the description allows', () => {
      expect(check.problems(received({}))).to.deep.equal([]);
      expect(check.problems(received({ status: 409, body: { success: false, error: { code: 'CONFLICT', message: 'taken' } } }))).to.deep.equal([]);
      expect(check.problems(received({ method: 'GET', path: '/v1/nowhere', status: 404, body: { success: false, error: { code: 'NOT_FOUND', message: 'no' } } }))).to.deep.equal([]);
      expect(check.problems(received({ method: 'HEAD', path: '/healthz', status: 200, body: undefined, hasBody: false }))).to.deep.equal([]);
    });

    it('refuses what it does not allow', () => {
      const refused: Array<[string, Partial<ReceivedResponse>]> = [
        ['another success status', { status: 200 }],
        ['a field missing', { body: { success: true, data: { ...customer, customerId: undefined } } }],
        ['a field of the wrong type', { body: { success: true, data: { ...customer, createdAt: 'tomorrow' } } }],
        ['more than the envelope', { body: { success: true, data: customer, extra: 1 } }],
        ['another media type', { contentType: 'text/html' }],
        ['a code of another status', { status: 400, body: { success: false, error: { code: 'NOT_FOUND', message: 'no' } } }],
        ['an unknown code', { status: 418, body: { success: false, error: { code: 'TEAPOT', message: 'no' } } }],
        ['a success nobody declared', { method: 'GET', path: '/v1/nowhere', status: 200, body: { success: true, data: {} } }],
        ['a failure outside the envelope', { method: 'DELETE', path: '/v1/nowhere', status: 404, body: { message: 'no' } }],
      ];
      for (const [what, overrides] of refused) expect(check.problems(received(overrides)), what).not.to.deep.equal([]);
    });
  });
});
