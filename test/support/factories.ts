import { createHash, randomBytes } from 'node:crypto';
import { issueCustomerKey } from '../../shared/api-keys';
import { newId } from '../../shared/ids';
import { apiKey, customer } from './records';
import type { TestApp } from './test-app';

/** Records created through the API or the store of a running test app (store records themselves: records.ts). */
let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}`;

export async function createApplication(app: TestApp, overrides: Record<string, unknown> = {}) {
  const body = { applicationId: unique('app'), name: 'Test application', ...overrides };
  const response = await app.http.post('/v1/management/applications', body);
  if (response.status !== 201) throw new Error(`application not created: ${response.status} ${response.raw}`);
  return response.body.data as { applicationId: string; customerIds: string[] };
}

/** A customer and a working key, written through the store. */
export async function createCustomer(app: TestApp, overrides: { tier?: string; isActive?: boolean; customerId?: string } = {}) {
  const now = new Date();
  const customerId = overrides.customerId ?? unique('cust');
  await app.core.store.createCustomer(customer(customerId, {
    tier: overrides.tier ?? 'standard',
    isActive: overrides.isActive ?? true,
    createdAt: now,
    updatedAt: now,
  }));
  const issued = issueCustomerKey(customerId);
  await app.core.store.createApiKey(apiKey(newId('key'), { customerId, keyHash: issued.keyHash, prefix: issued.prefix, createdAt: now }));
  return { customerId, apiKey: issued.apiKey };
}

export interface SmallUpload {
  applicationId: string;
  version: string;
  content?: Buffer;
  fileName?: string;
  fileType?: string;
  requiredTier?: string;
  releaseNotes?: string;
  contentType?: string;
  platform?: string;
  arch?: string;
  channel?: string;
  status?: string;
  /** Send the release fields (platform, arch, channel, status) after the file part instead of before it. */
  releaseFieldsAfterFile?: boolean;
}

export function smallUploadForm(upload: SmallUpload): FormData {
  const form = new FormData();
  form.set('applicationId', upload.applicationId);
  form.set('version', upload.version);
  if (upload.fileType) form.set('fileType', upload.fileType);
  if (upload.requiredTier) form.set('requiredTier', upload.requiredTier);
  if (upload.releaseNotes) form.set('releaseNotes', upload.releaseNotes);
  const releaseFields = () => {
    for (const name of ['platform', 'arch', 'channel', 'status'] as const) if (upload[name]) form.set(name, upload[name]);
  };
  if (!upload.releaseFieldsAfterFile) releaseFields();
  const content = upload.content ?? randomBytes(1024);
  form.set('file', new Blob([content], { type: upload.contentType ?? 'application/octet-stream' }), upload.fileName ?? 'setup.exe');
  if (upload.releaseFieldsAfterFile) releaseFields();
  return form;
}

export async function uploadSmallFile(app: TestApp, upload: SmallUpload) {
  const response = await app.http.request('POST', '/v1/management/upload', { body: smallUploadForm(upload) });
  if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${response.raw}`);
  return response.body.data as { fileId: string; checksum: string; sha512: string; fileSize: number; fileName: string };
}

export const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** A scoped admin key issued through the API by the root key. */
export async function createAdminKey(app: TestApp, request: { scopes: string[]; applicationIds?: string[]; expiresAt?: string; name?: string }) {
  const response = await app.http.post('/v1/management/apikeys', { name: 'Test key', ...request });
  if (response.status !== 201) throw new Error(`admin key not issued: ${response.status} ${response.raw}`);
  return response.body.data as { keyId: string; apiKey: string; prefix: string };
}
