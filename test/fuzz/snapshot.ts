import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { HttpClient } from '../support/http-client';
import type { Fixture } from './fixture';

/**
 * What a fixture's records look like from outside, read through the admin API: applications with
 * their versions and files, customers with their active keys, the pending upload, the share links'
 * standing, how many applications and customers exist, and every byte in object storage. Two
 * snapshots are equal when no request changed anything stored.
 */
export interface Snapshot {
  applications: Record<string, unknown>;
  customers: Record<string, unknown>;
  upload: unknown;
  shareLinks: Record<string, number>;
  totals: { applications: number; customers: number };
  objects: Record<string, string>;
}

export async function takeSnapshot(http: HttpClient, fixture: Fixture, dataDir: string): Promise<Snapshot> {
  const read = async (pathAndQuery: string) => {
    const response = await http.get(pathAndQuery);
    return { status: response.status, data: response.body?.data ?? response.body };
  };
  const applications: Record<string, unknown> = {};
  for (const applicationId of Object.values(fixture.apps)) {
    applications[applicationId] = await read(`/v1/management/applications/${applicationId}?includeDeleted=true`);
  }
  const customers: Record<string, unknown> = {};
  for (const { customerId } of Object.values(fixture.customers)) {
    const keys = await read(`/v1/management/customers/${customerId}/apikeys`);
    customers[customerId] = { record: await read(`/v1/management/customers/${customerId}`), keys: withoutLastUse(keys) };
  }
  const shareLinks: Record<string, number> = {};
  for (const [name, token] of Object.entries(fixture.shares)) {
    // HEAD uses a link without recording a download.
    shareLinks[name] = (await http.request('HEAD', `/v1/downloads/share/${token}`, { key: null })).status;
  }
  const total = async (listing: string) => (await http.get(listing)).body?.data?.pagination?.total as number;
  return {
    applications,
    customers,
    upload: await read(`/v1/management/uploads/${fixture.upload.uploadId}`),
    shareLinks,
    totals: {
      applications: await total('/v1/management/applications?includeDeleted=true&pageSize=1'),
      customers: await total('/v1/management/customers?pageSize=1'),
    },
    objects: objectsUnder(path.join(dataDir, 'objects')),
  };
}

/** A key's last use moves whenever the customer downloads; it is not data a request may not change. */
function withoutLastUse(keys: { status: number; data: { apiKeys?: Array<Record<string, unknown>> } }) {
  return { status: keys.status, apiKeys: keys.data?.apiKeys?.map(({ lastUsedAt: _, ...key }) => key) };
}

/** Every file in the embedded object storage (partial writes included) by path, with its SHA-256. */
function objectsUnder(root: string): Record<string, string> {
  const objects: Record<string, string> = {};
  if (!fs.existsSync(root)) return objects;
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    objects[path.relative(root, file)] = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  }
  return objects;
}
