import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import type { Route } from '../../gateway/http/route';
import { grants, Scope, SCOPES } from '../../shared/scopes';
import type { AuditEntry } from '../../shared/store/models';
import { createAdminKey, createApplication, smallUploadForm, uploadSmallFile } from '../support/factories';
import type { HttpResult } from '../support/http-client';
import { pngImage } from '../support/images';
import { startTestApp, TestApp } from '../support/test-app';

/** A key the table is run with: what it holds, and the applications it is limited to. */
interface KeyCase {
  label: string;
  apiKey: string;
  actor: string;
  scopes: readonly Scope[];
  applicationIds: readonly string[] | null;
}

/** One request a key sends to a route, naming `named` wherever the route takes an application. */
interface Sent {
  route: Route;
  key: KeyCase;
  named: string;
  response: HttpResult;
}

let counter = 0;
const fresh = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}`;

/**
 * Every route of the route table, sent by a key of each scope, by keys limited to one application
 * (naming it, and naming another), and by a root key: each request must be let through or refused
 * (403) exactly as its route declares, and every management write let through must be in the audit
 * log under its request id, key and action, while no refused request is.
 */
describe('scopes on every route of the route table', function () {
  this.timeout(120_000);
  let app: TestApp;
  let routes: readonly Route[];
  const apps = { mine: '', other: '' };
  const uploads: Record<string, string> = {};
  let customerId: string;
  const keys: KeyCase[] = [];
  const sent: Sent[] = [];

  /** A valid JSON body for each admin route that takes one, naming `applicationId` where it names an application. */
  const BODIES: Record<string, (applicationId: string) => unknown> = {
    'POST /v1/management/applications': () => ({ applicationId: fresh('app'), name: 'Scoped' }),
    'PATCH /v1/management/applications/:applicationId': () => ({ description: 'changed' }),
    'PATCH /v1/management/applications/:applicationId/versions/:version': () => ({ releaseNotes: 'changed' }),
    'POST /v1/management/upload/large-url': (applicationId) => ({ applicationId, version: fresh('v'), fileName: 'big.iso', fileSize: 100 }),
    'POST /v1/management/upload/large-complete': (applicationId) => ({ uploadId: uploads[applicationId], applicationId, version: '2.0.0', fileName: 'big.iso', fileSize: 100 }),
    'POST /v1/management/uploads/multipart': (applicationId) => ({ applicationId, version: fresh('v'), fileName: 'huge.iso', fileSize: 100 }),
    // The upload these name is the large one above: refused (409) as no multipart upload, after the scope check.
    'POST /v1/management/uploads/:uploadId/parts': () => ({ partNumbers: [1] }),
    'POST /v1/management/customers': () => ({ name: 'Scoped customer', tier: 'standard' }),
    'PATCH /v1/management/customers/:customerId': () => ({ notes: 'changed' }),
    'POST /v1/management/customers/:customerId/apikeys': () => ({}),
    'POST /v1/management/customers/:customerId/tokens': () => ({ maxDownloads: 5 }),
    'PATCH /v1/management/customers/:customerId/tokens/:tokenId': () => ({ maxDownloads: 6 }),
    'PUT /v1/management/customers/:customerId/applications/:applicationId': () => ({}),
    'POST /v1/management/customers/:customerId/share-links': (applicationId) => ({ applicationId, version: '1.0.0' }),
    'POST /v1/management/apikeys': () => ({ name: 'Issued by a scoped key', scopes: ['read'] }),
    'POST /v1/management/webhooks': () => ({ url: 'https://hooks.example.com/bds', events: ['upload.completed'] }),
    'PATCH /v1/management/webhooks/:webhookId': () => ({ description: 'changed' }),
    'POST /v1/management/webhooks/:webhookId/rotate-secret': () => ({}),
    'POST /v1/management/applications/:applicationId/repositories/rotate-key': () => ({}),
    // Not a key that opens: refused by the service (400) once admitted, which is what this test looks at.
    'PUT /v1/management/applications/:applicationId/repositories/key': () => ({ privateKey: '-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nAAAA\n-----END PGP PRIVATE KEY BLOCK-----\n' }),
    'POST /v1/management/webhooks/:webhookId/deliveries/:deliveryId/redeliver': () => ({}),
    // The file these name is unknown: refused (404) after the scope check.
    'POST /v1/management/applications/:applicationId/versions/:version/files/:fileId/attestations': () => ({
      payloadType: 'application/vnd.in-toto+json', payload: 'e30=', signatures: [{ sig: 'AA==' }],
    }),
    // A root signed by nobody the service knows: refused (422) once admitted.
    'POST /v1/management/applications/:applicationId/tuf/roots': () => ({ signed: { _type: 'root', version: 1 }, signatures: [{ keyid: 'a'.repeat(64), sig: 'ab' }] }),
    'POST /v1/management/applications/:applicationId/attestation-keys': () => ({
      publicKey: generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    }),
  };

  before(async () => {
    app = await startTestApp({ workers: false });
    routes = app.gateway.gateway.routes;
    for (const which of ['mine', 'other'] as const) {
      const { applicationId } = await createApplication(app);
      apps[which] = applicationId;
      await uploadSmallFile(app, { applicationId, version: '1.0.0' });
      const large = await app.http.post('/v1/management/upload/large-url', { applicationId, version: '2.0.0', fileName: 'big.iso', fileSize: 100 });
      uploads[applicationId] = large.body.data.uploadId;
    }
    customerId = (await app.http.post('/v1/management/customers', { name: 'Scopes', tier: 'standard' })).body.data.customerId;

    const key = async (label: string, scopes: Scope[], applicationIds?: string[]) => {
      const issued = await createAdminKey(app, { name: label, scopes, applicationIds });
      keys.push({ label, apiKey: issued.apiKey, actor: issued.keyId, scopes, applicationIds: applicationIds ?? null });
    };
    for (const scope of SCOPES) await key(`${scope} key`, [scope]);
    for (const scope of SCOPES.filter((s) => s !== 'admin')) await key(`${scope} key limited to one application`, [scope], [apps.mine]);
    keys.push({ label: 'root key', apiKey: app.adminKey, actor: 'root', scopes: ['admin'], applicationIds: null });

    for (const route of routes.filter((r) => r.guard !== 'none')) {
      const named = route.application ? [apps.mine, apps.other] : [apps.mine];
      for (const key of keys) for (const applicationId of named) sent.push({ route, key, named: applicationId, response: await send(route, key, applicationId) });
    }
  });
  after(() => app?.close());

  const where = ({ route, key, named }: Sent) => `${route.method.toUpperCase()} ${route.path} by the ${key.label}, naming ${named === apps.mine ? 'its' : 'another'} application`;

  async function send(route: Route, key: KeyCase, applicationId: string): Promise<HttpResult> {
    const values: Record<string, string> = {
      applicationId, uploadId: uploads[applicationId], version: '1.0.0', fileId: 'unknown_file', customerId, keyId: 'unknown_key', tokenId: 'unknown_token', webhookId: 'unknown_webhook', deliveryId: 'unknown_delivery', shareLinkId: 'unknown_link',
    };
    const path = route.path.replace(/:(\w+)(?:\([^)]*\))?/g, (_, name: string) => encodeURIComponent(values[name]));
    const query = route.application?.from === 'query' ? `?${route.application.field}=${applicationId}` : '';
    const method = route.method.toUpperCase();
    const options = { key: key.apiKey };
    if (route.body === undefined) return app.http.request(method, `${path}${query}`, options);
    if ('kind' in route.body && route.body.kind === 'bytes') {
      // Raw bytes of the first type the route takes (a logo: a PNG).
      return app.http.request(method, `${path}${query}`, { ...options, body: pngImage(8), headers: { 'content-type': route.body.mediaTypes?.[0] ?? 'application/octet-stream' } });
    }
    if ('kind' in route.body) {
      return app.http.request(method, `${path}${query}`, { ...options, body: smallUploadForm({ applicationId, version: fresh('v') }) });
    }
    // A customer route refuses an admin key before it reads the body.
    if (route.guard !== 'admin') return app.http.request(method, `${path}${query}`, { ...options, json: {} });
    const body = BODIES[`${method} ${route.path}`];
    if (!body) throw new Error(`no valid body for ${method} ${route.path}: add one to BODIES`);
    return app.http.request(method, `${path}${query}`, { ...options, json: body(applicationId) });
  }

  /** What the route declares for this key and application. */
  function allowed({ route, key, named }: Sent): boolean {
    // A route for any key (what a key may do: GET /v1/me) admits every admin key.
    if (route.guard === 'key') return true;
    if (route.guard !== 'admin') return false;
    if (!grants(key.scopes, route.scope as Scope)) return false;
    if (key.applicationIds === null) return true;
    return route.application !== undefined && key.applicationIds.includes(named);
  }

  it('sends every route that takes a key, with every key', () => {
    const keyed = routes.filter((r) => r.guard !== 'none');
    expect(keyed.length).to.be.at.least(25);
    expect(new Set(sent.map((s) => s.route)).size).to.equal(keyed.length);
    expect(sent.filter((s) => s.route.guard === 'admin' && allowed(s)).length, 'requests let through').to.be.greaterThan(50);
    expect(sent.filter((s) => !allowed(s)).length, 'requests refused').to.be.greaterThan(50);
  });

  it('lets through what a route declares for the key, and refuses the rest with 403', () => {
    const mismatches: string[] = [];
    for (const request of sent) {
      const { status, body, raw } = request.response;
      if (allowed(request) ? status === 401 || status === 403 : status !== 403) {
        mismatches.push(`${where(request)}: expected ${allowed(request) ? 'to pass' : '403'}, got ${status} ${raw.toString().slice(0, 200)}`);
      } else if (!allowed(request) && request.route.guard === 'admin' && !/scope|application/.test(body.error.message)) {
        mismatches.push(`${where(request)}: refused for another reason: ${body.error.message}`);
      }
    }
    expect(mismatches).to.deep.equal([]);
  });

  it('records every write let through in the audit log, under its request id, key, action and status, and no refused request', async () => {
    const entries = new Map<string, AuditEntry>();
    for (let cursor: string | undefined, page = 0; page === 0 || cursor; page += 1) {
      const listed = await app.http.get(`/v1/management/audit?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      expect(listed.status, listed.raw.toString()).to.equal(200);
      for (const entry of listed.body.data.entries) entries.set(entry.requestId, entry);
      cursor = listed.body.data.pagination.nextCursor ?? undefined;
    }
    const problems: string[] = [];
    for (const request of sent) {
      const entry = entries.get(request.response.headers.get('x-request-id') as string);
      const audited = allowed(request) && request.route.method !== 'get';
      if (!audited) {
        if (entry) problems.push(`${where(request)}: recorded although ${allowed(request) ? 'a read' : 'refused'}`);
        continue;
      }
      if (!entry) {
        problems.push(`${where(request)}: not recorded (${request.response.status})`);
        continue;
      }
      const { route, key, named, response } = request;
      expect({ actor: entry.actor, action: entry.action, status: entry.status }, where(request))
        .to.deep.equal({ actor: key.actor, action: route.audit?.action, status: response.status });
      expect(entry.outcome, where(request)).to.equal(response.status < 300 ? 'succeeded' : 'refused');
      if (route.application) expect(entry.applicationId, where(request)).to.equal(named);
    }
    expect(problems).to.deep.equal([]);
  });
});
