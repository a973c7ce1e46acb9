import { expect } from 'chai';
import http from 'node:http';
import type { Clock } from '../../shared/clock';
import { createApplication, createCustomer, storeRelease } from '../support/factories';
import { pollUntil } from '../support/poll';
import { SecondGateway, startSecondGateway, startTestApp, TestApp } from '../support/test-app';

/** A clock the test moves; both gateways of the app read it. */
class MovableClock implements Clock {
  private at = Date.UTC(2030, 0, 15, 12, 0, 0);
  now(): number {
    return this.at;
  }
  set(at: number): void {
    this.at = at;
  }
}

interface Answer {
  status: number;
  body: any;
}

/** A request as a client with no API description sends it (the path form is the credential, not a route of its own). */
async function send(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, { headers, redirect: 'manual' });
  const text = await response.text();
  return { status: response.status, body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

describe('Access tokens', function () {
  this.timeout(60_000);
  const clock = new MovableClock();
  let app: TestApp;
  let second: SecondGateway;
  let customer: { customerId: string; apiKey: string };
  let applicationId: string;
  let otherApplicationId: string;
  const FILE_SIZE = 5_000_000_000;

  before(async () => {
    app = await startTestApp({ clock, captureLogs: true, env: { TRUST_PROXY: 'true', RATE_LIMITS: 'off' } });
    second = await startSecondGateway(app);
    customer = await createCustomer(app);
    ({ applicationId } = await createApplication(app, { customerIds: [customer.customerId] }));
    ({ applicationId: otherApplicationId } = await createApplication(app, { customerIds: [customer.customerId] }));
    await storeRelease(app.core.store, applicationId, '1.0.0', { files: [{ platform: 'linux', arch: 'x64', fileName: 'app-1.0.0.AppImage' }] });
    await storeRelease(app.core.store, applicationId, '1.1.0-beta.1', { channel: 'beta', createdAt: 1, files: [{ platform: 'linux', arch: 'x64' }] });
    await storeRelease(app.core.store, applicationId, '0.9.0', { requiredTier: 'enterprise', createdAt: -1, files: [{ platform: 'linux', arch: 'x64' }] });
    await storeRelease(app.core.store, otherApplicationId, '2.0.0', { files: [{ platform: 'windows', arch: 'x64' }] });
  });

  after(async () => {
    await second?.close();
    await app?.close();
  });

  const createToken = async (limits: Record<string, unknown> = {}, customerId = customer.customerId) => {
    const created = await app.http.post(`/v1/management/customers/${customerId}/tokens`, limits);
    expect(created.status, created.raw.toString()).to.equal(201);
    return created.body.data as { tokenId: string; token: string };
  };
  const latestPath = (token: string, app_ = applicationId) => `/t/${token}/v1/downloads/url?applicationId=${app_}&version=latest&platform=linux&arch=x64`;
  const usageOf = async (tokenId: string) => (await app.http.get(`/v1/management/customers/${customer.customerId}/tokens/${tokenId}`)).body.data.usage;
  const gateways = () => [app.baseUrl, `http://127.0.0.1:${second.gateway.gateway.port}`];

  it('shows the token once, lists and reads it without it, and records its use', async () => {
    const { tokenId, token } = await createToken({ name: 'CI fleet', maxDownloads: 5, resetEvery: 'week' });
    expect(token).to.match(/^bdt_/);
    const listed = await app.http.get(`/v1/management/customers/${customer.customerId}/tokens`);
    expect(listed.status).to.equal(200);
    expect(listed.raw.toString()).not.to.include(token);
    expect(listed.body.data.tokens.map((t: { tokenId: string }) => t.tokenId)).to.include(tokenId);
    expect((await send(app.baseUrl, latestPath(token))).status).to.equal(200);
    const read = await app.http.get(`/v1/management/customers/${customer.customerId}/tokens/${tokenId}`);
    expect(read.body.data).to.deep.include({ tokenId, name: 'CI fleet', maxDownloads: 5, resetEvery: 'week' });
    // Monday 2030-01-14 to Monday 2030-01-21, UTC.
    expect(read.body.data.usage).to.deep.equal({ downloads: 1, clients: 1, bytes: FILE_SIZE, periodStart: '2030-01-14T00:00:00.000Z', periodEnd: '2030-01-21T00:00:00.000Z' });
    // Its use is recorded like a key's, in the background, and its downloads are its customer's.
    await pollUntil(async () => (await app.core.store.accessTokens.getAccessToken(customer.customerId, tokenId))?.lastUsedAt ?? undefined, 10_000, 'the token\'s lastUsedAt');
    const events = await app.core.store.activity.listEvents({ limit: 10 });
    expect(events.some((event) => event.customerId === customer.customerId && event.applicationId === applicationId)).to.equal(true);
  });

  it('works in front of the download, share and update routes, and as a bearer', async () => {
    const { token } = await createToken();
    expect((await send(app.baseUrl, latestPath(token))).body.data.downloadUrl).to.be.a('string');
    const share = await app.http.post('/v1/downloads/share', { applicationId, version: '1.0.0', platform: 'linux', arch: 'x64' }, { key: customer.apiKey });
    expect(share.status).to.equal(201);
    const shareToken = share.body.data.token as string;
    expect((await send(app.baseUrl, `/t/${token}/v1/downloads/share/${shareToken}`)).status).to.equal(302);
    expect((await send(app.baseUrl, `/t/${token}/v1/updates/${applicationId}/electron/1.0.0/app-1.0.0.AppImage`)).status).to.equal(302);
    expect((await send(app.baseUrl, `/v1/updates/${applicationId}/electron/1.0.0/app-1.0.0.AppImage`, { Authorization: `Bearer ${token}` })).status).to.equal(302);
    // Never a credential for anything else.
    const refused = await app.http.post('/v1/downloads/share', { applicationId, version: '1.0.0' }, { key: token });
    expect(refused.status).to.equal(403);
    expect((await send(app.baseUrl, `/t/${token}/v1/management/customers`)).status).to.equal(404);
  });

  it('gives exactly maxDownloads of 50 parallel downloads across two gateways, and nothing counted for the refused', async () => {
    const { tokenId, token } = await createToken({ maxDownloads: 10 });
    const [one, two] = gateways();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => send(i % 2 ? one : two, latestPath(token))));
    expect(answers.filter((a) => a.status === 200)).to.have.length(10);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).to.have.length(40);
    for (const answer of refused) {
      expect(answer.status).to.equal(403);
      expect(answer.body.error.code).to.equal('TOKEN_DOWNLOAD_LIMIT_REACHED');
      expect(answer.body.error.resetsAt).to.equal(undefined);
    }
    expect(await usageOf(tokenId)).to.include({ downloads: 10, bytes: 10 * FILE_SIZE, clients: 1 });
  });

  it('admits exactly maxClients distinct client addresses across two gateways', async () => {
    const { tokenId, token } = await createToken({ maxClients: 3 });
    const [one, two] = gateways();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => send(i % 2 ? one : two, latestPath(token), { 'X-Forwarded-For': `203.0.113.${i + 1}` })));
    expect(answers.filter((a) => a.status === 200)).to.have.length(3);
    expect(new Set(answers.filter((a) => a.status !== 200).map((a) => a.body.error.code))).to.deep.equal(new Set(['TOKEN_CLIENT_LIMIT_REACHED']));
    expect(await usageOf(tokenId)).to.include({ downloads: 3, clients: 3 });
  });

  it('admits downloads up to exactly maxBytes across two gateways', async () => {
    const { tokenId, token } = await createToken({ maxBytes: 4 * FILE_SIZE + FILE_SIZE / 2 });
    const [one, two] = gateways();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => send(i % 2 ? one : two, latestPath(token))));
    expect(answers.filter((a) => a.status === 200)).to.have.length(4);
    expect(new Set(answers.filter((a) => a.status !== 200).map((a) => a.body.error.code))).to.deep.equal(new Set(['TOKEN_BYTE_LIMIT_REACHED']));
    expect(await usageOf(tokenId)).to.include({ downloads: 4, bytes: 4 * FILE_SIZE });
  });

  it('starts the counts again when the period ends, and says when in the refusal', async () => {
    clock.set(Date.UTC(2030, 0, 15, 23, 0, 0));
    const { tokenId, token } = await createToken({ maxDownloads: 2, resetEvery: 'day' });
    expect((await send(app.baseUrl, latestPath(token))).status).to.equal(200);
    expect((await send(app.baseUrl, latestPath(token))).status).to.equal(200);
    const refused = await send(app.baseUrl, latestPath(token));
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.deep.include({ code: 'TOKEN_DOWNLOAD_LIMIT_REACHED', resetsAt: '2030-01-16T00:00:00.000Z' });
    expect(refused.body.error.details).to.deep.include({ field: 'resetsAt', message: '2030-01-16T00:00:00.000Z' });
    clock.set(Date.UTC(2030, 0, 16, 0, 0, 1));
    expect((await send(app.baseUrl, latestPath(token))).status).to.equal(200);
    expect(await usageOf(tokenId)).to.deep.equal({ downloads: 1, clients: 1, bytes: FILE_SIZE, periodStart: '2030-01-16T00:00:00.000Z', periodEnd: '2030-01-17T00:00:00.000Z' });
  });

  it('is refused before validFrom and from validUntil', async () => {
    const now = clock.now();
    const { token } = await createToken({ validFrom: new Date(now + 3_600_000).toISOString(), validUntil: new Date(now + 7_200_000).toISOString() });
    const early = await send(app.baseUrl, latestPath(token));
    expect(early.status).to.equal(403);
    expect(early.body.error).to.deep.include({ code: 'TOKEN_NOT_YET_VALID', resetsAt: new Date(now + 3_600_000).toISOString() });
    clock.set(now + 3_600_000);
    expect((await send(app.baseUrl, latestPath(token))).status).to.equal(200);
    clock.set(now + 7_200_000);
    const late = await send(app.baseUrl, latestPath(token));
    expect(late.status).to.equal(403);
    expect(late.body.error.code).to.equal('TOKEN_EXPIRED');
    clock.set(now);
  });

  it('is refused on every gateway at once when revoked', async () => {
    const { tokenId, token } = await createToken();
    for (const base of gateways()) expect((await send(base, latestPath(token))).status).to.equal(200);
    const revoked = await app.http.delete(`/v1/management/customers/${customer.customerId}/tokens/${tokenId}`);
    expect(revoked.status).to.equal(200);
    expect(revoked.body.data.revokedAt).to.be.a('string');
    for (const base of gateways()) expect((await send(base, latestPath(token))).status).to.equal(401);
  });

  it('never grants more than its customer, and narrows it by its own applications, channels and platforms', async () => {
    const { token } = await createToken();
    // The customer's tier stops the token as it stops the key.
    expect((await send(app.baseUrl, `/t/${token}/v1/downloads/url?applicationId=${applicationId}&version=0.9.0&platform=linux&arch=x64`)).status).to.equal(403);
    const inactive = await app.http.patch(`/v1/management/customers/${customer.customerId}`, { isActive: false });
    expect(inactive.status).to.equal(200);
    for (const base of gateways()) expect((await send(base, latestPath(token))).status).to.equal(403);
    await app.http.patch(`/v1/management/customers/${customer.customerId}`, { isActive: true });
    expect((await send(app.baseUrl, latestPath(token, otherApplicationId).replace('linux', 'windows'))).status).to.equal(200);
    expect((await app.http.delete(`/v1/management/customers/${customer.customerId}/applications/${otherApplicationId}`)).status).to.equal(200);
    expect((await send(app.baseUrl, latestPath(token, otherApplicationId).replace('linux', 'windows'))).status).to.equal(404);
    await app.http.request('PUT', `/v1/management/customers/${customer.customerId}/applications/${otherApplicationId}`, { json: {} });

    const narrow = await createToken({ applications: [applicationId], channels: ['stable'], platforms: ['linux'] });
    expect((await send(app.baseUrl, latestPath(narrow.token, otherApplicationId).replace('linux', 'windows'))).status).to.equal(404);
    expect((await send(app.baseUrl, `/t/${narrow.token}/v1/downloads/url?applicationId=${applicationId}&version=1.1.0-beta.1&platform=linux&arch=x64`)).status).to.equal(403);
    const beta = await send(app.baseUrl, `/t/${narrow.token}/v1/downloads/url?applicationId=${applicationId}&version=latest&channel=beta&platform=linux&arch=x64`);
    expect(beta.status).to.equal(200);
    expect(beta.body.data.version).to.equal('1.0.0');
    // The applications listing shows only the token's own applications.
    const listed = await send(app.baseUrl, `/t/${narrow.token}/v1/downloads/applications`);
    expect(listed.status).to.equal(200);
    expect(listed.body.data.applications.map((a: { applicationId: string }) => a.applicationId)).to.deep.equal([applicationId]);
    expect(listed.body.data.pagination).to.include({ total: 1 });
    const wide = await send(app.baseUrl, `/t/${token}/v1/downloads/applications`);
    expect(wide.body.data.applications.map((a: { applicationId: string }) => a.applicationId)).to.have.members([applicationId, otherApplicationId]);
    // A token's applications are among its customer's.
    const outside = await app.http.post(`/v1/management/customers/${customer.customerId}/tokens`, { applications: ['no-such-app'] });
    expect(outside.status).to.equal(400);
  });

  it('never writes a token to the request log, path form or bearer', async () => {
    const { token } = await createToken();
    await send(app.baseUrl, latestPath(token));
    const unmatched = await send(app.baseUrl, `/t/${token}/no/such/route`);
    expect(unmatched.status).to.equal(404);
    expect(JSON.stringify(unmatched.body)).not.to.include(token);
    await send(second.http.baseUrl, latestPath(token));
    // Spellings the router does not match still name the token: each is logged without it.
    for (const spelling of [`//t/${token}/v1/downloads/url`, `/t//${token}/v1/downloads/url`, `/./t/${token}/v1/downloads/url`, `/%74/${token}/v1/downloads/url`]) {
      const status = await new Promise<number>((resolve, reject) => {
        const request = http.request({ host: '127.0.0.1', port: Number(new URL(app.baseUrl).port), path: spelling, agent: false }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        });
        request.on('error', reject);
        request.end();
      });
      expect(status, spelling).to.be.oneOf([200, 401, 404]);
    }
    const requests = app.logs.filter((line) => line.msg === 'request');
    expect(requests.some((line) => line.path === '/v1/downloads/url')).to.equal(true);
    expect(requests.some((line) => line.path === '/t/[redacted]/no/such/route')).to.equal(true);
    expect(JSON.stringify(app.logs)).not.to.include(token);
    expect(JSON.stringify(app.logs)).not.to.include(token.slice(4));
  });
});
