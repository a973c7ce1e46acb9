import { randomBytes } from 'node:crypto';
import type { ApiClient } from './api-client';

export interface Seeded {
  applicationId: string;
  version: string;
  customerId: string;
  customerKey: string;
  shareToken: string;
}

/** What the HTTP figures need, created through the API: a customer with a key, an application it may download, a MAIN file, a share link. */
export async function seedThroughApi(api: ApiClient): Promise<Seeded> {
  const customer = await api.admin<{ customerId: string; apiKey: string }>('/v1/management/customers', {
    json: { name: 'Bench customer', tier: 'standard' },
  });
  const applicationId = 'bench-app';
  await api.admin('/v1/management/applications', {
    json: { applicationId, name: 'Bench application', customerIds: [customer.customerId], defaultVersionStatus: 'published' },
  });
  const version = '1.0.0';
  await api.admin('/v1/management/upload', { form: smallUploadForm(applicationId, version, randomBytes(64 * 1024)) });
  const share = await api.call<{ token: string }>('/v1/downloads/share', {
    key: customer.apiKey,
    json: { applicationId, version, expiresInMinutes: 1440 },
  });
  return { applicationId, version, customerId: customer.customerId, customerKey: customer.apiKey, shareToken: share.token };
}

export function smallUploadForm(applicationId: string, version: string, content: Uint8Array): FormData {
  const form = new FormData();
  form.set('applicationId', applicationId);
  form.set('version', version);
  form.set('fileType', 'MAIN');
  form.set('file', new Blob([content], { type: 'application/octet-stream' }), 'setup.bin');
  return form;
}
