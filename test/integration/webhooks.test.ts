import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_DISABLE_AFTER_FAILING_MS } from '../../shared/policy';
import { createApplication, createCustomer, smallUploadForm, storeRelease, uploadSmallFile } from '../support/factories';
import { pollUntil } from '../support/poll';
import { parseExposition, valueOf } from '../support/prometheus-text';
import { startTestApp, TestApp } from '../support/test-app';
import { ReceivedRequest, WebhookReceiver } from '../support/webhook-receiver';
import { DAY_MS } from '../../shared/durations';

const WEBHOOKS = '/v1/management/webhooks';

interface Delivery {
  deliveryId: string;
  eventType: string;
  status: string;
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  lastAttemptAt: string | null;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
}

/** Signatures checked by an implementation of the specification that is not ours. */
function verified(secret: string, request: ReceivedRequest): { type: string; timestamp: string; data: Record<string, unknown> } {
  const headers = {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  };
  return new Webhook(secret).verify(request.body, headers) as { type: string; timestamp: string; data: Record<string, unknown> };
}

describe('webhooks', function () {
  this.timeout(60_000);
  let app: TestApp;
  let receiver: WebhookReceiver;

  before(async () => {
    // Retries 20 ms apart at first (then 40, 80 ms...) instead of 10 s: the schedule's shape, quickly.
    app = await startTestApp({ env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '20' }, captureLogs: true });
  });

  after(async () => {
    await app?.close();
  });

  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });

  afterEach(async () => {
    // Every test starts with no endpoint, so no event reaches another test's receiver.
    const { body } = await app.http.get(`${WEBHOOKS}?pageSize=100`);
    for (const webhook of body.data.webhooks as { webhookId: string }[]) await app.http.delete(`${WEBHOOKS}/${webhook.webhookId}`);
    await receiver.close();
  });

  async function register(events: string[], overrides: Record<string, unknown> = {}): Promise<{ webhookId: string; secret: string }> {
    const response = await app.http.post(WEBHOOKS, { url: receiver.url(), events, ...overrides });
    expect(response.status, response.raw.toString()).to.equal(201);
    return response.body.data;
  }

  async function deliveries(webhookId: string): Promise<Delivery[]> {
    const response = await app.http.get(`${WEBHOOKS}/${webhookId}/deliveries`);
    expect(response.status).to.equal(200);
    return response.body.data.deliveries;
  }

  const settledDelivery = (webhookId: string, eventType: string) =>
    pollUntil(async () => (await deliveries(webhookId)).find((d) => d.eventType === eventType && d.status !== 'pending'), 20_000, `${eventType} delivery`);

  /** webhook_deliveries_total by outcome, as the worker's metrics have it now. */
  const deliveryCounts = async (): Promise<Record<string, number>> => {
    const samples = parseExposition((await app.core.metrics.exposition()).body);
    return Object.fromEntries(['delivered', 'retried', 'failed', 'refused'].map((outcome) => [outcome, valueOf(samples, 'webhook_deliveries_total', { outcome })]));
  };
  const countsSince = async (before: Record<string, number>) => {
    const now = await deliveryCounts();
    return Object.fromEntries(Object.entries(now).map(([outcome, count]) => [outcome, count - before[outcome]]));
  };

  const received = (type: string, count = 1) =>
    pollUntil(() => (receiver.ofType(type).length >= count ? receiver.ofType(type) : undefined), 20_000, `${count} × ${type} received`);

  describe('endpoints', () => {
    it('shows the signing secret once, in the Standard Webhooks form, and stores it only sealed', async () => {
      const created = await app.http.post(WEBHOOKS, { url: receiver.url(), events: ['customer.created'], description: 'CRM sync' });
      expect(created.status).to.equal(201);
      const { webhookId, secret } = created.body.data;
      expect(secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(created.body.data).to.include({ url: receiver.url(), description: 'CRM sync', isActive: true, disabledReason: null });

      const read = await app.http.get(`${WEBHOOKS}/${webhookId}`);
      expect(read.body.data).to.deep.equal(Object.fromEntries(Object.entries(created.body.data).filter(([field]) => field !== 'secret')));
      expect(JSON.stringify((await app.http.get(WEBHOOKS)).body)).not.to.contain(secret.slice(6, 20));
      const stored = await app.core.store.webhooks.getWebhookEndpoint(webhookId);
      expect(JSON.stringify(stored)).not.to.contain(secret.slice(6, 20));
      expect(JSON.stringify(app.logs)).not.to.contain(secret.slice(6, 20));
    });

    it('lists, changes and deletes endpoints', async () => {
      const { webhookId } = await register(['customer.created']);
      const patched = await app.http.patch(`${WEBHOOKS}/${webhookId}`, { events: ['customer.created', 'customer.updated'], description: null });
      expect(patched.status).to.equal(200);
      expect(patched.body.data.events).to.deep.equal(['customer.created', 'customer.updated']);
      const listed = await app.http.get(WEBHOOKS);
      expect(listed.body.data.webhooks.map((w: { webhookId: string }) => w.webhookId)).to.deep.equal([webhookId]);
      expect(listed.body.data.pagination).to.deep.equal({ page: 1, pageSize: 20, total: 1, totalPages: 1 });
      expect((await app.http.delete(`${WEBHOOKS}/${webhookId}`)).body.data).to.deep.equal({ message: `webhook ${webhookId} deleted`, webhookId });
      expect((await app.http.get(`${WEBHOOKS}/${webhookId}`)).status).to.equal(404);
      expect((await app.http.delete(`${WEBHOOKS}/${webhookId}`)).status).to.equal(404);
      expect((await app.http.get(`${WEBHOOKS}/${webhookId}/deliveries`)).status).to.equal(404);
    });

    it('refuses what could never be delivered, or delivered only where it must not go, and stores nothing', async () => {
      const refused: Array<[unknown, string]> = [
        [{ url: receiver.url(), events: ['customer.archived'] }, 'events.0'],
        [{ url: receiver.url(), events: [] }, 'events'],
        [{ url: receiver.url(), events: ['customer.created', 'customer.created'] }, 'events'],
        [{ url: `http://localhost:${receiver.port}/hook`, events: ['customer.created'] }, 'url'],
        [{ url: 'http://example.com/hook', events: ['customer.created'] }, 'url'],
        [{ url: 'https://10.1.2.3/hook', events: ['customer.created'] }, 'url'],
        [{ url: 'https://169.254.169.254/latest/meta-data', events: ['customer.created'] }, 'url'],
        [{ url: 'https://[::1]/hook', events: ['customer.created'] }, 'url'],
        [{ url: 'https://[fd00::1]/hook', events: ['customer.created'] }, 'url'],
        [{ url: 'https://user:pass@example.com/hook', events: ['customer.created'] }, 'url'],
        [{ url: 'ftp://example.com/hook', events: ['customer.created'] }, 'url'],
        [{ url: 'https://exam\nple.com/hook', events: ['customer.created'] }, 'url'],
        [{ url: `https://example.com/${'a'.repeat(2_048)}`, events: ['customer.created'] }, 'url'],
        [{ url: 'https://example.com/hook', events: ['customer.created'], secret: 'whsec_mine' }, ''],
      ];
      for (const [body, field] of refused) {
        const response = await app.http.post(WEBHOOKS, body);
        expect(response.status, JSON.stringify(body)).to.equal(400);
        expect(response.body.error.code).to.equal('VALIDATION_ERROR');
        if (field) expect(response.body.error.details.map((d: { field: string }) => d.field), JSON.stringify(body)).to.include(field);
      }
      expect((await app.http.get(WEBHOOKS)).body.data.pagination.total).to.equal(0);
      expect((await app.http.post(WEBHOOKS, { url: 'https://hooks.example.com/in', events: ['download.recorded'] })).status).to.equal(201);
    });
  });

  describe('delivery', () => {
    it('signs every message as the Standard Webhooks specification says, and logs the delivery', async () => {
      const { webhookId, secret } = await register(['customer.created']);
      const created = await app.http.post('/v1/management/customers', { name: 'Acme', tier: 'standard' });
      const [request] = await received('customer.created');
      const payload = verified(secret, request);
      expect(payload.type).to.equal('customer.created');
      expect(payload.data).to.deep.include({ customerId: created.body.data.customerId, name: 'Acme', tier: 'standard', isActive: true });
      expect(JSON.stringify(payload)).not.to.contain(created.body.data.apiKey);
      expect(request.headers['content-type']).to.equal('application/json');
      expect(() => verified(`whsec_${randomBytes(32).toString('base64')}`, request)).to.throw();

      const delivery = await settledDelivery(webhookId, 'customer.created');
      expect(delivery).to.include({ deliveryId: request.headers['webhook-id'], status: 'delivered', attempts: 1, responseStatus: 200, error: null });
      expect(delivery.payload).to.deep.equal(payload);
    });

    it('retries a failed attempt with the same id and body until the receiver answers 2xx, attempts in order', async () => {
      receiver.answer({ status: 500, body: 'down for maintenance' }, { status: 503 }, { status: 200 });
      const counts = await deliveryCounts();
      const { webhookId, secret } = await register(['customer.created']);
      await createCustomer(app);
      await app.http.post('/v1/management/customers', { name: 'Retried', tier: 'free' });
      const attempts = await received('customer.created', 3);
      expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).to.equal(1);
      expect(new Set(attempts.map((a) => a.body)).size).to.equal(1);
      const timestamps = attempts.map((a) => Number(a.headers['webhook-timestamp']));
      expect([...timestamps].sort((a, b) => a - b)).to.deep.equal(timestamps);
      for (const attempt of attempts) expect(verified(secret, attempt).type).to.equal('customer.created');

      const delivery = await settledDelivery(webhookId, 'customer.created');
      expect(delivery).to.include({ status: 'delivered', attempts: 3, responseStatus: 200, error: null });
      expect(receiver.ofType('customer.created')).to.have.length(3);
      // An expected retry is one warn line with the receiver's status, never a stack trace.
      const retries = app.logs.filter((line) => line.msg === 'job failed' && line.deliveryId === delivery.deliveryId);
      expect(retries.map((line) => [line.level, line.responseStatus, line.retried])).to.deep.equal([[40, 500, true], [40, 503, true]]);
      for (const line of retries) expect(line).not.to.have.property('err');
      expect(await countsSince(counts), 'webhook_deliveries_total').to.deep.equal({ delivered: 1, retried: 2, failed: 0, refused: 0 });
    });

    it('does not follow a redirect, and records the receiver status and the start of its body', async () => {
      receiver.answer({ status: 302, headers: { location: receiver.url('/elsewhere') }, body: 'x'.repeat(5_000) }, { status: 204 });
      const { webhookId } = await register(['customer.created']);
      await app.http.post('/v1/management/customers', { name: 'Redirected', tier: 'free' });
      await received('customer.created', 2);
      expect(receiver.requests.map((r) => r.path)).to.deep.equal(['/hook', '/hook']);
      const delivery = await settledDelivery(webhookId, 'customer.created');
      expect(delivery).to.include({ status: 'delivered', attempts: 2, responseStatus: 204 });
    });

    it('keeps failing attempts in the log, with the status and why', async () => {
      receiver.answer({ status: 410, body: 'x'.repeat(5_000) });
      const { webhookId } = await register(['customer.created']);
      await app.http.post('/v1/management/customers', { name: 'Failing', tier: 'free' });
      await received('customer.created', 2);
      const [delivery] = await deliveries(webhookId);
      expect(delivery.responseStatus).to.equal(410);
      expect(delivery.error).to.equal('the receiver answered 410');
      expect((delivery as unknown as { responseBody: string }).responseBody).to.equal('x'.repeat(1_024));
      expect(delivery.attempts).to.be.at.least(1);
      const endpoint = (await app.http.get(`${WEBHOOKS}/${webhookId}`)).body.data;
      expect(endpoint.failingSince).to.be.a('string');
      expect(endpoint.isActive).to.equal(true);
    });

    it('disables an endpoint whose deliveries have all failed for 5 days, and says why', async () => {
      receiver.answer({ status: 500 });
      const counts = await deliveryCounts();
      const { webhookId } = await register(['customer.created']);
      const fiveDaysAgo = new Date(Date.now() - WEBHOOK_DISABLE_AFTER_FAILING_MS - 1_000);
      await app.core.store.webhooks.updateWebhookEndpoint(webhookId, { failingSince: fiveDaysAgo }, new Date());
      await app.http.post('/v1/management/customers', { name: 'Never delivered', tier: 'free' });
      const endpoint = await pollUntil(async () => {
        const { body } = await app.http.get(`${WEBHOOKS}/${webhookId}`);
        return body.data.isActive ? undefined : body.data;
      }, 20_000, 'endpoint disabled');
      expect(endpoint.disabledReason).to.contain(`every delivery failed since ${fiveDaysAgo.toISOString()}`);
      expect(endpoint.disabledReason).to.contain('the receiver answered 500');
      const delivery = await settledDelivery(webhookId, 'customer.created');
      expect(delivery.status).to.equal('failed');
      expect(delivery.attempts).to.equal(1);
      expect(delivery.error).to.contain('the endpoint was disabled');
      expect((await countsSince(counts)).failed, 'webhook_deliveries_total').to.be.at.least(1);

      // Turned on again, it starts afresh.
      const enabled = await app.http.patch(`${WEBHOOKS}/${webhookId}`, { isActive: true });
      expect(enabled.body.data).to.include({ isActive: true, disabledReason: null, failingSince: null });
    });

    it('does not disable an endpoint failing for less than 5 days', async () => {
      receiver.answer({ status: 500 }, { status: 500 }, { status: 200 });
      const { webhookId } = await register(['customer.created']);
      await app.core.store.webhooks.updateWebhookEndpoint(webhookId, { failingSince: new Date(Date.now() - 4 * DAY_MS) }, new Date());
      await app.http.post('/v1/management/customers', { name: 'Late', tier: 'free' });
      const delivery = await settledDelivery(webhookId, 'customer.created');
      expect(delivery).to.include({ status: 'delivered', attempts: 3 });
      const endpoint = (await app.http.get(`${WEBHOOKS}/${webhookId}`)).body.data;
      expect(endpoint).to.include({ isActive: true, failingSince: null });
    });

    it('redelivers a message with the same id, and refuses while it is still being attempted', async () => {
      const { webhookId, secret } = await register(['customer.created']);
      await app.http.post('/v1/management/customers', { name: 'Twice', tier: 'free' });
      const delivery = await settledDelivery(webhookId, 'customer.created');
      const redeliver = `${WEBHOOKS}/${webhookId}/deliveries/${delivery.deliveryId}/redeliver`;

      receiver.answer('hang');
      const again = await app.http.post(redeliver);
      expect(again.status).to.equal(202);
      expect(again.body.data).to.include({ deliveryId: delivery.deliveryId, status: 'pending' });
      await received('customer.created', 2);
      expect((await app.http.post(redeliver)).status).to.equal(409);

      receiver.answer({ status: 200 });
      const [first, second] = receiver.ofType('customer.created');
      expect(second.headers['webhook-id']).to.equal(first.headers['webhook-id']);
      expect(second.body).to.equal(first.body);
      expect(verified(secret, second).type).to.equal('customer.created');

      expect((await app.http.post(`${WEBHOOKS}/${webhookId}/deliveries/msg_unknown/redeliver`)).status).to.equal(404);
      const other = await register(['customer.updated']);
      expect((await app.http.post(`${WEBHOOKS}/${other.webhookId}/deliveries/${delivery.deliveryId}/redeliver`)).status).to.equal(404);
    });

    it('signs with the previous secret too for a day after a rotation', async () => {
      const { webhookId, secret: before } = await register(['customer.created']);
      const rotated = await app.http.post(`${WEBHOOKS}/${webhookId}/rotate-secret`);
      expect(rotated.status).to.equal(201);
      const { secret: after, previousSecretExpiresAt } = rotated.body.data;
      expect(after).to.match(/^whsec_/).and.not.equal(before);
      expect(Date.parse(previousSecretExpiresAt) - Date.now()).to.be.within(DAY_MS - 60_000, DAY_MS);
      await app.http.post('/v1/management/customers', { name: 'Rotated', tier: 'free' });
      const [request] = await received('customer.created');
      expect(String(request.headers['webhook-signature']).split(' ')).to.have.length(2);
      expect(verified(after, request).type).to.equal('customer.created');
      expect(verified(before, request).type).to.equal('customer.created');

      // Once the overlap is over, only the new secret signs.
      await app.core.store.webhooks.updateWebhookEndpoint(webhookId, { previousSecretExpiresAt: new Date(Date.now() - 1) }, new Date());
      await app.http.post('/v1/management/customers', { name: 'Later', tier: 'free' });
      const [, later] = await received('customer.created', 2);
      expect(verified(after, later).type).to.equal('customer.created');
      expect(() => verified(before, later)).to.throw();
    });

    it('refuses, at delivery, a host name that resolves to a loopback address, and sends nothing', async () => {
      const counts = await deliveryCounts();
      const { webhookId } = await register(['customer.created'], { url: `https://localhost:${receiver.port}/hook` });
      await app.http.post('/v1/management/customers', { name: 'Refused', tier: 'free' });
      const [delivery] = await pollUntil(async () => {
        const log = await deliveries(webhookId);
        return log.length > 0 && log[0].attempts > 0 ? log : undefined;
      }, 20_000, 'refused attempt');
      expect(delivery.responseStatus).to.equal(null);
      expect(delivery.error).to.match(/^destination refused: localhost resolves to (127\.0\.0\.1|::1), which is a loopback address$/);
      expect(receiver.requests).to.deep.equal([]);
      // The attempt is logged in the store before it is counted in the metrics: poll for the count too.
      const refused = await pollUntil(async () => {
        const since = await countsSince(counts);
        return since.refused >= 1 ? since : undefined;
      }, 20_000, 'the refusal counted in webhook_deliveries_total');
      expect(refused.delivered).to.equal(0);
    });
  });

  describe('events', () => {
    it('announces customers, keys, share links and deleted applications, never a secret', async () => {
      const { webhookId, secret } = await register([
        'customer.created', 'customer.updated', 'apikey.created', 'apikey.revoked', 'access_token.created', 'access_token.revoked', 'share_link.created', 'application.deleted',
      ]);
      const created = (await app.http.post('/v1/management/customers', { name: 'Events', tier: 'premium' })).body.data;
      const customerId = created.customerId as string;
      await app.http.patch(`/v1/management/customers/${customerId}`, { tier: 'enterprise' });
      const issued = (await app.http.post(`/v1/management/customers/${customerId}/apikeys`)).body.data;
      await app.http.delete(`/v1/management/customers/${customerId}/apikeys/${issued.keyId}`);
      const token = (await app.http.post(`/v1/management/customers/${customerId}/tokens`, { maxDownloads: 3 })).body.data;
      await app.http.delete(`/v1/management/customers/${customerId}/tokens/${token.tokenId}`);
      const { applicationId } = await createApplication(app, { customerIds: [customerId] });
      const { fileId } = await uploadSmallFile(app, { applicationId, version: '1.0.0' });
      const share = await app.http.post('/v1/downloads/share', { applicationId, version: '1.0.0' }, { key: created.apiKey });
      expect(share.status).to.equal(201);
      await app.http.delete(`/v1/management/applications/${applicationId}`);

      await received('application.deleted');
      const data = (type: string) => receiver.ofType(type).map((request) => verified(secret, request).data);
      expect(data('customer.updated')).to.deep.equal([{ ...data('customer.created')[0], tier: 'enterprise', updatedAt: data('customer.updated')[0].updatedAt }]);
      expect(data('apikey.created').map((key) => key.keyId)).to.deep.equal([created.keyId, issued.keyId]);
      expect(data('apikey.revoked')).to.have.length(1);
      expect(data('apikey.revoked')[0]).to.include({ customerId, keyId: issued.keyId });
      expect(data('apikey.revoked')[0].revokedAt).to.be.a('string');
      expect(data('access_token.created')).to.deep.equal([{ ...data('access_token.created')[0], tokenId: token.tokenId, maxDownloads: 3, revokedAt: null }]);
      expect(data('access_token.revoked')[0]).to.include({ customerId, tokenId: token.tokenId });
      expect(data('access_token.revoked')[0].revokedAt).to.be.a('string');
      const [shared] = data('share_link.created');
      expect(shared).to.include({ customerId, applicationId, version: '1.0.0', fileId, expiresAt: share.body.data.expiresAt });
      expect(shared).to.not.have.any.keys('token', 'shareUrl');
      expect(data('application.deleted')[0]).to.include({ applicationId, name: 'Test application' });
      const everything = receiver.requests.map((r) => r.body).join('\n');
      for (const secretValue of [created.apiKey, issued.apiKey, token.token, share.body.data.token]) expect(everything).not.to.contain(secretValue);
      expect((await deliveries(webhookId)).every((d) => d.status === 'delivered')).to.equal(true);
    });

    it('announces an upload and the version it published, from the gateway and from the verifying worker', async () => {
      const { secret } = await register(['upload.completed', 'upload.failed', 'version.published']);
      const { applicationId } = await createApplication(app);
      const small = await uploadSmallFile(app, { applicationId, version: '1.0.0' });
      await uploadSmallFile(app, { applicationId, version: '1.0.0', fileName: 'notes.txt', fileType: 'DOCUMENTATION' });

      const content = randomBytes(64 * 1024);
      const issue = async (fileName: string, fileType = 'MAIN') => {
        const issued = await app.http.post('/v1/management/upload/large-url', { applicationId, version: '2.0.0', fileName, fileType, fileSize: content.length });
        expect(issued.status, issued.raw.toString()).to.equal(201);
        const session = issued.body.data;
        const put = await fetch(session.uploadUrl, { method: 'PUT', body: content });
        expect(put.status).to.equal(200);
        return session.uploadId as string;
      };
      const good = await issue('big.iso');
      await app.http.post('/v1/management/upload/large-complete', { uploadId: good, applicationId, version: '2.0.0', fileName: 'big.iso', fileSize: content.length });
      const bad = await issue('bad.iso', 'OTHER');
      await app.http.post('/v1/management/upload/large-complete', {
        uploadId: bad, applicationId, version: '2.0.0', fileName: 'bad.iso', fileSize: content.length, checksum: 'ab'.repeat(32),
      });

      await received('upload.completed', 3);
      await received('upload.failed');
      const data = (type: string) => receiver.ofType(type).map((request) => verified(secret, request).data);
      const completed = data('upload.completed');
      expect(completed.map((d) => [d.uploadId, d.version, d.fileName])).to.have.deep.members([
        [null, '1.0.0', 'setup.exe'], [null, '1.0.0', 'notes.txt'], [good, '2.0.0', 'big.iso'],
      ]);
      expect(completed.find((d) => d.fileName === 'setup.exe')).to.include({ fileId: small.fileId, checksum: small.checksum, fileSize: small.fileSize });
      // Published once each: the second file of 1.0.0 does not publish it again.
      await received('version.published', 2);
      expect(data('version.published').map((d) => [d.version, d.status])).to.have.deep.members([['1.0.0', 'published'], ['2.0.0', 'published']]);
      expect(data('upload.failed')).to.have.length(1);
      expect(data('upload.failed')[0]).to.include({ uploadId: bad, fileName: 'bad.iso' });
      expect(data('upload.failed')[0].failureReason).to.contain('checksum mismatch');
    });

    it('announces a version published, yanked and brought back by the version PATCH, not a change that keeps its status', async () => {
      const { secret } = await register(['version.published', 'version.yanked']);
      const { applicationId } = await createApplication(app);
      await storeRelease(app.core.store, applicationId, '1.0.0', { status: 'draft' });
      const patch = async (body: Record<string, unknown>) => {
        const response = await app.http.patch(`/v1/management/applications/${applicationId}/versions/1.0.0`, body);
        expect(response.status, response.raw.toString()).to.equal(200);
      };
      await patch({ releaseNotes: 'still a draft' });
      await patch({ status: 'published' });
      await patch({ status: 'published', channel: 'beta' });
      await patch({ status: 'yanked' });
      await patch({ rolloutPercentage: 50 });
      await patch({ status: 'published' });

      await received('version.published', 2);
      await received('version.yanked');
      const data = (type: string) => receiver.ofType(type).map((request) => verified(secret, request).data);
      expect(data('version.published').map((d) => [d.version, d.status, d.channel])).to.have.deep.members([['1.0.0', 'published', 'stable'], ['1.0.0', 'published', 'beta']]);
      expect(data('version.yanked').map((d) => [d.version, d.status, d.channel])).to.deep.equal([['1.0.0', 'yanked', 'beta']]);
      expect(data('version.published').map((d) => d.publishedAt)).to.deep.equal([data('version.yanked')[0].publishedAt, data('version.yanked')[0].publishedAt]);
    });

    describe("each event's data is what the API answers for the same resource, field for field", () => {
      const dataOf = (secret: string, type: string) => receiver.ofType(type).map((request) => verified(secret, request).data);
      const listedVersion = async (applicationId: string, version: string) => {
        const listed = await app.http.get(`/v1/management/applications/${applicationId}/versions`);
        expect(listed.status).to.equal(200);
        return (listed.body.data.versions as { version: string }[]).find((candidate) => candidate.version === version);
      };

      it('version.published: the version as the versions listing answers it, files included, from an upload and from the version PATCH', async () => {
        const { secret } = await register(['version.published', 'version.yanked']);
        const { applicationId } = await createApplication(app);
        await uploadSmallFile(app, { applicationId, version: '1.0.0' });
        const [uploaded] = await received('version.published');
        expect(verified(secret, uploaded).data).to.deep.equal(await listedVersion(applicationId, '1.0.0'));

        await storeRelease(app.core.store, applicationId, '2.0.0', { status: 'draft', files: [{ platform: 'linux', arch: 'x64' }, { fileType: 'SIGNATURE', fileName: 'app.sig' }] });
        const published = await app.http.patch(`/v1/management/applications/${applicationId}/versions/2.0.0`, { status: 'published', rolloutPercentage: 40 });
        expect(published.status).to.equal(200);
        await received('version.published', 2);
        const data = dataOf(secret, 'version.published').find((d) => d.version === '2.0.0');
        expect(data).to.deep.equal(published.body.data);
        expect(data).to.deep.equal(await listedVersion(applicationId, '2.0.0'));
        expect(data).to.include({ applicationId, rolloutPercentage: 40 });
        expect((data?.files as { sha512: unknown }[])).to.have.length(2);

        const yanked = await app.http.patch(`/v1/management/applications/${applicationId}/versions/2.0.0`, { status: 'yanked' });
        const [yankedEvent] = await received('version.yanked');
        expect(verified(secret, yankedEvent).data).to.deep.equal(yanked.body.data);
      });

      it('upload.completed: the file as its upload answers it, and as its version lists it; upload.failed: the upload as GET of it answers', async () => {
        const { secret } = await register(['upload.completed', 'upload.failed']);
        const { applicationId } = await createApplication(app);
        const small = await app.http.request('POST', '/v1/management/upload', { body: smallUploadForm({ applicationId, version: '1.0.0' }) });
        expect(small.status).to.equal(201);
        await received('upload.completed');
        expect(dataOf(secret, 'upload.completed')[0]).to.deep.equal({ uploadId: null, ...small.body.data });

        const content = randomBytes(32 * 1024);
        const largeUpload = async (fileName: string, checksum?: string) => {
          const issued = await app.http.post('/v1/management/upload/large-url', { applicationId, version: '1.0.0', fileName, fileType: 'OTHER', fileSize: content.length });
          expect(issued.status, issued.raw.toString()).to.equal(201);
          const put = await fetch(issued.body.data.uploadUrl, { method: 'PUT', body: content });
          expect(put.status).to.equal(200);
          const { uploadId } = issued.body.data as { uploadId: string };
          await app.http.post('/v1/management/upload/large-complete', { uploadId, applicationId, version: '1.0.0', fileName, fileSize: content.length, ...(checksum ? { checksum } : {}) });
          return uploadId;
        };
        const good = await largeUpload('data.bin');
        const bad = await largeUpload('broken.bin', 'ab'.repeat(32));
        await received('upload.completed', 2);
        const [failed] = await received('upload.failed');

        const completed = dataOf(secret, 'upload.completed').find((d) => d.uploadId === good);
        const answered = await app.http.get(`/v1/management/uploads/${good}`);
        expect(answered.body.data.status).to.equal('completed');
        expect(completed).to.deep.equal({ uploadId: good, ...answered.body.data.file });
        const listed = (await listedVersion(applicationId, '1.0.0')) as unknown as { files: Record<string, unknown>[] };
        const file = listed.files.find((candidate) => candidate.fileId === completed?.fileId) as Record<string, unknown>;
        for (const [field, value] of Object.entries(file)) expect(completed?.[field], field).to.deep.equal(value);
        expect(completed?.sha512).to.be.a('string');

        expect(verified(secret, failed).data).to.deep.equal((await app.http.get(`/v1/management/uploads/${bad}`)).body.data);
        expect(verified(secret, failed).data).to.include({ uploadId: bad, status: 'failed' });
      });

      it('customer.created and customer.updated: the customer as GET of it answers; apikey.created: the key as its listing answers', async () => {
        const { secret } = await register(['customer.created', 'customer.updated', 'apikey.created']);
        const created = (await app.http.post('/v1/management/customers', { name: 'Contract', tier: 'standard', notes: 'billing via reseller' })).body.data;
        const customerPath = `/v1/management/customers/${created.customerId}`;
        await received('customer.created');
        expect(dataOf(secret, 'customer.created')[0]).to.deep.equal((await app.http.get(customerPath)).body.data);
        const [firstKey] = await received('apikey.created');
        expect(verified(secret, firstKey).data).to.deep.equal((await app.http.get(`${customerPath}/apikeys`)).body.data.apiKeys[0]);

        const updated = await app.http.patch(customerPath, { tier: 'premium', notes: null });
        await received('customer.updated');
        expect(dataOf(secret, 'customer.updated')[0]).to.deep.equal(updated.body.data);
        expect(dataOf(secret, 'customer.updated')[0]).to.deep.equal((await app.http.get(customerPath)).body.data);
      });

      it('share_link.created: the link as its creation answers it, without its URL and token', async () => {
        const { secret } = await register(['share_link.created']);
        const customer = await createCustomer(app);
        const { applicationId } = await createApplication(app, { customerIds: [customer.customerId] });
        await uploadSmallFile(app, { applicationId, version: '1.0.0' });
        const share = await app.http.post('/v1/downloads/share', { applicationId, version: 'latest', maxDownloads: 3 }, { key: customer.apiKey });
        expect(share.status).to.equal(201);
        const [request] = await received('share_link.created');
        const { shareUrl, token, ...described } = share.body.data;
        expect(verified(secret, request).data).to.deep.equal(described);
        expect(described).to.include({ customerId: customer.customerId, applicationId, version: '1.0.0', maxDownloads: 3, downloadCount: 0 });
        expect(request.body).to.not.contain(token).and.not.contain(shareUrl);
      });
    });

    it('announces a draft version deleted and a customer deleted, with the records as they were', async () => {
      const { secret } = await register(['version.deleted', 'customer.deleted']);
      const { applicationId } = await createApplication(app);
      await storeRelease(app.core.store, applicationId, '1.0.0', { status: 'draft', channel: 'beta' });
      expect((await app.http.request('DELETE', `/v1/management/applications/${applicationId}/versions/1.0.0`)).status).to.equal(200);
      const customer = await app.http.post('/v1/management/customers', { name: 'Leaving', tier: 'standard' });
      const { customerId } = customer.body.data;
      expect((await app.http.request('DELETE', `/v1/management/customers/${customerId}`)).status).to.equal(200);

      await received('version.deleted');
      await received('customer.deleted');
      const data = (type: string) => receiver.ofType(type).map((request) => verified(secret, request).data);
      expect(data('version.deleted').map((d) => [d.applicationId, d.version, d.status, d.channel])).to.deep.equal([[applicationId, '1.0.0', 'draft', 'beta']]);
      expect(data('customer.deleted').map((d) => [d.customerId, d.name])).to.deep.equal([[customerId, 'Leaving']]);
    });

    it('sends download.recorded only to endpoints that subscribe to it by name', async () => {
      const allButDownloads = await register(['upload.completed', 'customer.created', 'customer.updated', 'apikey.created']);
      const downloads = await register(['download.recorded']);
      const customer = await createCustomer(app);
      const { applicationId } = await createApplication(app, { customerIds: [customer.customerId] });
      const { fileId } = await uploadSmallFile(app, { applicationId, version: '3.0.0' });
      const download = await app.http.get(`/v1/downloads/url?applicationId=${applicationId}&version=3.0.0`, {
        key: customer.apiKey, headers: { 'user-agent': 'updater/1.0' },
      });
      expect(download.status).to.equal(200);

      const [request] = await received('download.recorded');
      const payload = verified(downloads.secret, request);
      expect(payload.data).to.include({ applicationId, version: '3.0.0', fileId, customerId: customer.customerId, userAgent: 'updater/1.0' });
      expect((await settledDelivery(downloads.webhookId, 'download.recorded')).status).to.equal('delivered');
      expect((await deliveries(allButDownloads.webhookId)).map((d) => d.eventType)).not.to.include('download.recorded');
      expect(receiver.ofType('download.recorded')).to.have.length(1);
    });
  });
});
