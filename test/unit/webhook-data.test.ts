import { expect } from 'chai';
import type { AnyZodObject } from 'zod';
import { WEBHOOK_EVENT_DATA, WEBHOOK_EVENT_TYPES, webhookData, type WebhookEventType } from '../../shared/webhooks/events';
import { accessToken, apiKey, application, at, customer, downloadEvent, file, shareLink, uploadSession, version } from '../support/records';

/** Values that must never leave the service: a key's hash, a share link's token hash, storage keys. */
const KEY_HASH = 'hash-key_1';
const TOKEN_HASH = 'token-hash-of-the-link';
const FILE_STORAGE_KEY = 'apps/app_1/fil_1';
const SESSION_STORAGE_KEY = 'uploads/upl_1';

const published = { ...version('app_1', '1.0.0', { status: 'published', publishedAt: at(1) }), files: [file('fil_1', { sha512: 'c2hhNTEy' })] };

/** Each event's data, built from records that hold every secret a record can hold. */
const DATA: Record<WebhookEventType, () => unknown> = {
  'upload.completed': () => webhookData.uploadCompleted(file('fil_1', { sha512: 'c2hhNTEy' }), published, 'upl_1'),
  'upload.failed': () => webhookData.uploadFailed(uploadSession('upl_1', { status: 'failed', failureReason: 'checksum mismatch' })),
  'version.published': () => webhookData.version(published),
  'version.yanked': () => webhookData.version({ ...published, status: 'yanked' }),
  'version.deleted': () => webhookData.version({ ...published, status: 'draft', publishedAt: null }),
  'version.rollout_advanced': () => ({
    applicationId: 'app_1', version: '1.0.0', step: 1, fromPercentage: 5, percentage: 25,
    figures: { offered: 60, matured: 50, arrived: 48, stuck: 2, successRate: 0.96, failureReports: 0 },
  }),
  'version.rollout_halted': () => ({
    applicationId: 'app_1', version: '1.0.0', percentage: 5, reason: 'success rate 10% of 50 installs (at least 90%)', rolloutHaltedAt: at(5).toISOString(),
    figures: { offered: 60, matured: 50, arrived: 5, stuck: 45, successRate: 0.1, failureReports: 0 },
  }),
  'application.deleted': () => webhookData.applicationDeleted(application('app_1', { isActive: false, deletedAt: at(2) })),
  'customer.created': () => webhookData.customer(customer('cust_1')),
  'customer.updated': () => webhookData.customer(customer('cust_1', { tier: 'premium', updatedAt: at(3) })),
  'customer.deleted': () => webhookData.customer(customer('cust_1')),
  'apikey.created': () => webhookData.apiKey(apiKey('key_1')),
  'apikey.revoked': () => webhookData.apiKey(apiKey('key_1', { revokedAt: at(4) })),
  'access_token.created': () => webhookData.accessToken(accessToken('tok_1', { tokenHash: TOKEN_HASH, maxDownloads: 10, applications: ['app_1'] })),
  'access_token.revoked': () => webhookData.accessToken(accessToken('tok_1', { tokenHash: TOKEN_HASH, revokedAt: at(4) })),
  'share_link.created': () => webhookData.shareLinkCreated(shareLink(TOKEN_HASH, { maxDownloads: 3, downloadCount: 1 })),
  'download.recorded': () => webhookData.downloadRecorded(downloadEvent('evt_1')),
};

describe('webhook event data', () => {
  it('is built for every event type', () => {
    expect(Object.keys(DATA)).to.have.members([...WEBHOOK_EVENT_TYPES]);
  });

  for (const type of WEBHOOK_EVENT_TYPES) {
    it(`${type}: exactly the fields of its contract schema, never a secret, hash or storage key`, () => {
      const data = DATA[type]();
      expect((WEBHOOK_EVENT_DATA[type] as AnyZodObject).strict().parse(data)).to.deep.equal(data);
      const text = JSON.stringify(data);
      for (const value of [KEY_HASH, TOKEN_HASH, FILE_STORAGE_KEY, SESSION_STORAGE_KEY]) expect(text).not.to.contain(value);
      for (const field of ['keyHash', 'tokenHash', 'storageKey', 'token', 'apiKey', 'secret']) expect(text).not.to.contain(`"${field}"`);
    });
  }

  it('gives a version event the SHA-512 and rollout of its files and version', () => {
    const data = webhookData.version({ ...published, rolloutPercentage: 25 });
    expect(data).to.include({ applicationId: 'app_1', version: '1.0.0', rolloutPercentage: 25 });
    expect(data.files.map((described) => described.sha512)).to.deep.equal(['c2hhNTEy']);
  });
});
