import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { HttpClient } from '../support/http-client';
import type { Fixture } from './fixture';

/**
 * What a fixture's records look like from outside, read through the admin API: applications with
 * their versions and files, customers with their active keys, the scoped admin keys, the pending
 * upload, the share links' standing, the webhook endpoints, how many applications, customers and
 * endpoints exist, and every byte in object storage. Two snapshots are equal when no request
 * changed anything stored.
 */
export interface Snapshot {
  applications: Record<string, unknown>;
  customers: Record<string, unknown>;
  upload: unknown;
  shareLinks: Record<string, number>;
  webhooks: Record<string, unknown>;
  totals: { applications: number; customers: number; webhooks: number };
  adminKeys: unknown;
  objects: Record<string, string>;
}

type Read = { status: number; data: any };

export async function takeSnapshot(http: HttpClient, fixture: Fixture, dataDir: string): Promise<Snapshot> {
  const read = async (pathAndQuery: string): Promise<Read> => {
    const response = await http.get(pathAndQuery);
    return { status: response.status, data: response.body?.data ?? response.body };
  };
  // HEAD uses a share link without recording a download.
  const standing = async (token: string) => (await http.request('HEAD', `/v1/downloads/share/${token}`, { key: null })).status;
  const total = async (listing: string) => (await read(listing)).data?.pagination?.total as number;
  const customerIds = Object.values(fixture.customers).map((c) => c.customerId);
  const [applications, customers, keys, upload, shareLinks, applicationCount, customerCount, webhooks, webhookCount, adminKeys] = await Promise.all([
    Promise.all(Object.values(fixture.apps).map((id) => read(`/v1/management/applications/${id}?includeDeleted=true`))),
    Promise.all(customerIds.map((id) => read(`/v1/management/customers/${id}`))),
    Promise.all(customerIds.map((id) => read(`/v1/management/customers/${id}/apikeys`))),
    read(`/v1/management/uploads/${fixture.upload.uploadId}`),
    Promise.all(Object.values(fixture.shares).map(standing)),
    total('/v1/management/applications?includeDeleted=true&pageSize=1'),
    total('/v1/management/customers?pageSize=1'),
    Promise.all(Object.values(fixture.webhooks).map((id) => read(`/v1/management/webhooks/${id}`))),
    total('/v1/management/webhooks?pageSize=1'),
    read('/v1/management/apikeys'),
  ]);
  return {
    applications: Object.fromEntries(Object.values(fixture.apps).map((id, i) => [id, byName(applications[i])])),
    customers: Object.fromEntries(customerIds.map((id, i) => [id, { record: customers[i], keys: withoutLastUse(keys[i]) }])),
    upload,
    shareLinks: Object.fromEntries(Object.keys(fixture.shares).map((name, i) => [name, shareLinks[i]])),
    webhooks: Object.fromEntries(Object.values(fixture.webhooks).map((id, i) => [id, webhooks[i]])),
    totals: { applications: applicationCount, customers: customerCount, webhooks: webhookCount },
    adminKeys: withoutLastUse(adminKeys),
    objects: objectsUnder(path.join(dataDir, 'objects')),
  };
}

/** Versions by version and files by id, so that a new one shows as itself, not as every later one moved. */
function byName(application: Read): Read {
  const versions: Array<{ version: string; files: Array<{ fileId: string }> }> | undefined = application.data?.versions;
  if (!versions) return application;
  return {
    ...application,
    data: {
      ...application.data,
      versions: Object.fromEntries(versions.map((v) => [v.version, { ...v, files: Object.fromEntries(v.files.map((file) => [file.fileId, file])) }])),
    },
  };
}

/** A key's last use moves whenever the key is used; it is not data a request may not change. */
function withoutLastUse(keys: Read) {
  const apiKeys: Array<Record<string, unknown> & { keyId: string }> = keys.data?.apiKeys ?? [];
  return { status: keys.status, apiKeys: Object.fromEntries(apiKeys.map(({ lastUsedAt: _, ...key }) => [key.keyId, key])) };
}

/** Every file in the embedded object storage (partial writes included) by path, with its SHA-256. */
export function objectsUnder(root: string): Record<string, string> {
  const objects: Record<string, string> = {};
  if (!fs.existsSync(root)) return objects;
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const bytes = readIfPresent(file);
    // A file gone between listing and reading was a partial write being cleaned up: not stored.
    if (bytes) objects[path.relative(root, file)] = createHash('sha256').update(bytes).digest('hex');
  }
  return objects;
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
