import { AssertionError, expect } from 'chai';
import SwaggerParser from '@apidevtools/swagger-parser';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type Router from '@koa/router';
import { openApiPath } from '../../gateway/pipeline/api-description';
import { ERROR_CODES } from '../../shared/errors';
import { ApiResponseCheck, ReceivedResponse } from '../support/api-responses';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { HttpClient } from '../support/http-client';
import { lintApiDescription } from '../support/openapi-lint';
import { startTestApp, TestApp } from '../support/test-app';

interface Response {
  description: string;
  headers?: Record<string, { required?: boolean; schema: Record<string, unknown> }>;
  content?: Record<string, { schema: Record<string, any> }>;
}
interface Operation {
  operationId?: string;
  security: unknown[];
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content: Record<string, { schema: Record<string, any> }> };
  responses: Record<string, Response>;
}
type Operations = Record<string, Record<string, Operation>>;

/** Share-link uses a link may have per minute here: the third use of one link is refused. */
const SHARE_LINK_USES = 2;

/** GET /v1/openapi.json: the API description generated from the route table. */
describe('the API description', () => {
  let app: TestApp;
  let document: { openapi: string; servers: { url: string }[]; paths: Operations; components: { schemas: Record<string, any>; securitySchemes: Record<string, unknown> } };

  before(async () => {
    // Every route mounted: the embedded store's signed URLs, and the metrics with a token.
    app = await startTestApp({ workers: false, env: { METRICS_TOKEN: randomBytes(24).toString('hex'), RATE_LIMITS: `share-link=${SHARE_LINK_USES}/60` } });
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

  it('passes the OpenAPI linter with no error and no warning', async () => {
    // The server is the deployment's PUBLIC_BASE_URL: a public host in production, loopback here,
    // which the linter rightly warns about in a published document.
    const deployed = { ...document, servers: [{ url: 'https://downloads.vendor.test' }] };
    expect(await lintApiDescription(deployed)).to.deep.equal([]);
    expect((await lintApiDescription(document)).map((finding) => finding.rule)).to.deep.equal(['redocly/no-server-example.com']);
  });

  it('names every operation once, from its declaration, and states the licence', () => {
    const operationIds = app.gateway.gateway.routes.map((route) => route.operationId);
    expect(new Set(operationIds).size).to.equal(operationIds.length);
    for (const route of app.gateway.gateway.routes) {
      expect(document.paths[openApiPath(route.path)][route.method].operationId, `${route.method} ${route.path}`).to.equal(route.operationId);
    }
    expect(document.paths['/v1/updates/{applicationId}/electron/{channelFile}'].get.operationId).to.equal('getElectronChannelFile');
    expect(document.paths['/v1/tuf/{applicationId}/{metadataFile}'].get.operationId).to.equal('getTufMetadata');
    expect(Object.keys(document.paths['/v1/management/applications/{applicationId}/tuf/roots'].post.responses)).to.include.members(['201', '409', '422']);
    expect((document as unknown as { info: { license: unknown } }).info.license).to.deep.equal({ name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' });
  });

  it('states the rules of queries, bodies and headers: enums, ranges, patterns, formats, lengths in characters', () => {
    const parameter = (path: string, method: string, name: string) => (document.paths[path][method].parameters ?? []).find((p) => p.name === name) as unknown as { schema: Record<string, unknown> };
    expect(parameter('/v1/downloads/url', 'get', 'channel').schema.enum).to.deep.equal(app.config.channels);
    expect(parameter('/v1/downloads/url', 'get', 'arch').schema).to.include({ type: 'string' }).and.to.have.property('enum');
    expect(parameter('/v1/management/applications/{applicationId}/versions', 'get', 'status').schema.enum).to.deep.equal(['draft', 'published', 'yanked']);
    expect(parameter('/v1/management/customers', 'get', 'page').schema).to.deep.equal({ type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 });
    expect(parameter('/v1/activity', 'get', 'limit').schema).to.deep.equal({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(parameter('/v1/applications/{applicationId}/stats', 'get', 'to').schema).to.deep.equal({ type: 'string', format: 'date' });
    expect(parameter('/v1/management/customers', 'post', 'Idempotency-Key').schema).to.have.property('pattern');
    const customer = document.paths['/v1/management/customers'].post.requestBody?.content['application/json'].schema;
    expect(customer?.properties.tier.enum).to.deep.equal(app.config.tiers);
    expect(customer?.properties.name).to.include({ minLength: 1, maxLength: 200 }).and.to.have.property('pattern');
    const webhook = document.paths['/v1/management/webhooks'].post.requestBody?.content['application/json'].schema;
    expect(webhook?.properties.url).to.include({ format: 'uri', maxLength: 2_048 }).and.to.have.property('pattern');
    expect(webhook?.properties.events).to.include({ uniqueItems: true });
    const application = document.paths['/v1/management/applications/{applicationId}'].patch.requestBody?.content['application/json'].schema;
    expect(application).to.include({ minProperties: 1 });
    expect(application?.properties.updateSigningKey).to.have.property('pattern');
  });

  it('describes every route the router registered, and nothing else', () => {
    const koaRouter = app.gateway.gateway.app.middleware.map((middleware) => (middleware as { router?: Router }).router).find(Boolean) as Router;
    // The router answers HEAD for every GET: the description says so once, in its info.
    const registered = koaRouter.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m.toLowerCase()} ${openApiPath(layer.path as string)}`));
    const described = Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`));
    expect(described.sort()).to.deep.equal([...new Set(registered)].sort());
    expect(described).to.include.members([
      'get /v1/openapi.json', 'get /metrics', 'get /v1/objects/{key}', 'put /v1/objects/{key}',
      'get /v1/downloads/releases', 'patch /v1/management/applications/{applicationId}/versions/{version}',
      'post /v1/management/uploads/multipart', 'post /v1/management/uploads/{uploadId}/parts', 'post /v1/management/uploads/{uploadId}/complete',
      'delete /v1/management/uploads/{uploadId}', 'post /v1/management/webhooks', 'get /v1/management/webhooks/{webhookId}/deliveries',
      'post /v1/management/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', 'post /v1/management/apikeys', 'delete /v1/management/apikeys/{keyId}',
      'get /v1/management/audit',
    ]);
  });

  it("gives each route its guard's security scheme, and none to routes without a key", () => {
    expect(Object.keys(document.components.securitySchemes).sort()).to.deep.equal(['adminKey', 'customerKey', 'metricsToken']);
    expect(document.components.securitySchemes.adminKey).to.include({ type: 'http', scheme: 'bearer', bearerFormat: 'adm_<secret>' });
    expect(document.components.securitySchemes.customerKey).to.include({ type: 'http', scheme: 'bearer', bearerFormat: '<customerId>.<secret>' });
    for (const route of app.gateway.gateway.routes) {
      const operation = document.paths[openApiPath(route.path)][route.method];
      const expected = { admin: [{ adminKey: [route.scope] }], customer: [{ customerKey: [] }], key: [{ adminKey: [] }, { customerKey: [] }], metrics: [{ metricsToken: [] }], none: [] }[route.guard];
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
    for (const [code, status] of Object.entries(ERROR_CODES)) {
      const perStatus = document.components.schemas[`Error${status}`];
      if (perStatus) expect(perStatus.properties.error.properties.code.enum, code).to.include(code);
    }
    const creation = document.paths['/v1/management/applications'].post.responses;
    expect(creation).to.include.keys('201', '400', '401', '403', '409', '413', '415', '422', '429', '503', 'default');
    expect(document.paths['/healthz'].get.responses).not.to.have.key('429');
    expect(document.components.schemas.Error422.properties.error.properties.code.enum).to.deep.equal(['IDEMPOTENCY_KEY_REUSED', 'INVALID_ATTESTATION', 'ATTESTATION_SUBJECT_MISMATCH', 'UNSUPPORTED_KEY', 'INVALID_TUF_ROOT', 'INVALID_VERSION_RANGE', 'INVALID_ROLLBACK_TARGET']);
    expect(document.components.schemas.Error429.properties.error.properties.code.enum).to.deep.equal(['RATE_LIMITED']);
    // What a route's handler answers besides what its declaration implies, as it declares it.
    expect(document.paths['/v1/downloads/share/{token}'].get.responses).to.include.keys('302', '403', '404', '410', '429');
    expect(document.paths['/v1/management/applications/{applicationId}/versions/{version}'].patch.responses).to.include.keys('409');
  });

  it('answers any other failure only with the codes any request may meet', () => {
    const anyRoute = document.components.schemas.ErrorOfAnyRoute.properties.error.properties.code.enum;
    expect(anyRoute).to.have.members(['REQUEST_TIMEOUT', 'EXPECTATION_FAILED', 'HEADERS_TOO_LARGE', 'INTERNAL_ERROR']);
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(operation.responses.default.content?.['application/json'].schema, `${method} ${path}`).to.deep.equal({ $ref: '#/components/schemas/ErrorOfAnyRoute' });
      }
    }
  });

  it('describes the rate-limit headers on rate-limited routes, Retry-After on 429, and Idempotent-Replayed where a key is taken', () => {
    const headersOf = (response: Response) => Object.keys(response.headers ?? {}).sort();
    const download = document.paths['/v1/downloads/url'].get.responses;
    expect(headersOf(download['200'])).to.deep.equal(['RateLimit', 'RateLimit-Policy']);
    expect(headersOf(download['401'])).to.deep.equal([]);
    expect(headersOf(download['429'])).to.deep.equal(['RateLimit', 'RateLimit-Policy', 'Retry-After']);
    expect(download['429'].headers?.['Retry-After']).to.deep.include({ required: true, schema: { type: 'integer', minimum: 1 } });
    expect(headersOf(document.paths['/v1/downloads/share/{token}'].get.responses['302'])).to.deep.equal(['Location', 'RateLimit', 'RateLimit-Policy']);
    const creation = document.paths['/v1/management/customers'].post.responses;
    expect(headersOf(creation['201'])).to.deep.equal(['Idempotent-Replayed', 'RateLimit', 'RateLimit-Policy']);
    expect(headersOf(creation['409'])).to.deep.equal(['Idempotent-Replayed', 'RateLimit', 'RateLimit-Policy']);
    expect(headersOf(creation['503'])).to.deep.equal(['RateLimit', 'RateLimit-Policy']);
    expect(headersOf(document.paths['/healthz'].get.responses['200'])).to.deep.equal([]);
    expect(headersOf(document.paths['/v1/management/upload'].post.responses['201'])).to.deep.equal(['RateLimit', 'RateLimit-Policy']);
  });

  it("describes a share link's cap and use count", () => {
    const share = document.paths['/v1/downloads/share'].post;
    expect(share.requestBody?.content['application/json'].schema.properties.maxDownloads).to.deep.equal({ type: 'integer', minimum: 1, maximum: 100_000 });
    const created = share.responses['201'].content?.['application/json'].schema.properties.data;
    expect(created.properties).to.include.keys('maxDownloads', 'downloadCount');
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
      method: 'POST', path: '/v1/management/customers', status: 201, contentType: 'application/json; charset=utf-8', body: { success: true, data: customer }, hasBody: true, headerNames: [], ...overrides,
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
      expect(check.problems(received({ status: 429, headerNames: ['retry-after'], body: { success: false, error: { code: 'RATE_LIMITED', message: 'later' } } }))).to.deep.equal([]);
      expect(check.problems(received({ status: 500, body: { success: false, error: { code: 'INTERNAL_ERROR', message: 'oops' } } }))).to.deep.equal([]);
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
        ['a failure the route does not declare', { status: 410, body: { success: false, error: { code: 'GONE', message: 'no' } } }],
        ['a required header missing', { status: 429, body: { success: false, error: { code: 'RATE_LIMITED', message: 'later' } } }],
        ['a success nobody declared', { method: 'GET', path: '/v1/nowhere', status: 200, body: { success: true, data: {} } }],
        ['a failure outside the envelope', { method: 'DELETE', path: '/v1/nowhere', status: 404, body: { message: 'no' } }],
      ];
      for (const [what, overrides] of refused) expect(check.problems(received(overrides)), what).not.to.deep.equal([]);
    });
  });

  describe("the test client, in front of the service's answers altered on their way", () => {
    let proxy: AlteringProxy;
    let client: HttpClient;
    let customer: { customerId: string; apiKey: string };
    let applicationId: string;
    /** The path of a new share link, with all its uses left. */
    const newShareLink = async () => {
      const share = await app.http.post('/v1/downloads/share', { applicationId, version: '1.0.0' }, { key: customer.apiKey });
      expect(share.status).to.equal(201);
      return new URL(share.body.data.shareUrl).pathname;
    };
    const useUp = async (shareLink: string) => {
      for (let use = 0; use < SHARE_LINK_USES; use += 1) expect((await client.get(shareLink, { key: null })).status).to.equal(302);
    };

    before(async () => {
      proxy = await AlteringProxy.start(app.baseUrl);
      client = new HttpClient(proxy.url, app.adminKey);
      customer = await createCustomer(app);
      ({ applicationId } = await createApplication(app, { customerIds: [customer.customerId] }));
      await uploadSmallFile(app, { applicationId, version: '1.0.0' });
    });
    afterEach(() => {
      proxy.alteration = undefined;
    });
    after(() => proxy?.close());

    /** The request's failure: the assertion the client raised for the answer it received. */
    const refusal = async (request: () => Promise<unknown>): Promise<string> => {
      const failure = await request().then(() => undefined, (error: unknown) => error);
      expect(failure, 'the request failed').to.be.instanceOf(AssertionError);
      return (failure as Error).message;
    };

    it('takes the answers as they are', async () => {
      expect((await client.get(`/v1/management/customers/${customer.customerId}`)).status).to.equal(200);
      const shareLink = await newShareLink();
      await useUp(shareLink);
      const refused = await client.get(shareLink, { key: null });
      expect(refused.status).to.equal(429);
      expect(refused.headers.get('retry-after')).to.match(/^\d+$/);
    });

    it('fails the request whose answer lost a field', async () => {
      proxy.alteration = (answer) => {
        const body = JSON.parse(answer.body.toString());
        delete body.data.tier;
        answer.body = Buffer.from(JSON.stringify(body));
      };
      expect(await refusal(() => client.get(`/v1/management/customers/${customer.customerId}`)))
        .to.include(`GET /v1/management/customers/${customer.customerId} answered 200 outside the API description`)
        .and.to.include("must have required property 'tier'");
    });

    it("fails the typed client's call as it fails a raw request, and takes an answer as described", async () => {
      expect(await client.api().getCustomer({ customerId: customer.customerId })).to.include({ customerId: customer.customerId });
      proxy.alteration = (answer) => {
        const body = JSON.parse(answer.body.toString());
        delete body.data.tier;
        answer.body = Buffer.from(JSON.stringify(body));
      };
      expect(await refusal(() => client.api().getCustomer({ customerId: customer.customerId })))
        .to.include(`GET /v1/management/customers/${customer.customerId} answered 200 outside the API description`)
        .and.to.include("must have required property 'tier'");
    });

    it('fails the request answered with a status its operation does not declare', async () => {
      proxy.alteration = (answer) => {
        answer.status = 202;
      };
      expect(await refusal(() => client.get(`/v1/management/customers/${customer.customerId}`))).to.include('status 202 is not declared');
    });

    it("fails the request answered with another status's code", async () => {
      proxy.alteration = (answer) => {
        answer.body = Buffer.from(answer.body.toString().replace('"NOT_FOUND"', '"CONFLICT"'));
      };
      expect(await refusal(() => client.get('/v1/management/customers/nobody-here'))).to.include('/error/code must be equal to one of the allowed values');
    });

    it('fails the request whose 429 lost its Retry-After', async () => {
      const shareLink = await newShareLink();
      proxy.alteration = (answer) => {
        delete answer.headers['retry-after'];
      };
      await useUp(shareLink);
      expect(await refusal(() => client.get(shareLink, { key: null }))).to.include('no Retry-After header, which 429 requires');
    });
  });
});

/** An answer on its way through the proxy. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * An HTTP proxy in front of the service that passes requests on and may change the answers coming
 * back (all but the API description's), so that a test can hand a client real answers made wrong.
 */
class AlteringProxy {
  alteration: ((answer: Answer) => void) | undefined;

  private constructor(private readonly server: http.Server, private readonly target: string) {}

  static async start(target: string): Promise<AlteringProxy> {
    const server = http.createServer();
    const proxy = new AlteringProxy(server, target);
    server.on('request', (request, response) => {
      proxy.forward(request, response).catch((error: unknown) => response.destroy(error as Error));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async forward(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name !== 'host' && name !== 'connection')) as Record<string, string>;
    const upstream = await fetch(`${this.target}${request.url}`, {
      method: request.method, headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined, redirect: 'manual',
    });
    const answer: Answer = {
      status: upstream.status,
      // fetch has decoded the body: its length and coding are the proxy's to set.
      headers: Object.fromEntries([...upstream.headers].filter(([name]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name))),
      body: Buffer.from(await upstream.arrayBuffer()),
    };
    if (this.alteration && !request.url?.startsWith('/v1/openapi.json')) this.alteration(answer);
    response.writeHead(answer.status, { ...answer.headers, 'content-length': answer.body.length });
    response.end(answer.body);
  }
}
