import { createHash, randomBytes } from 'node:crypto';
import { issueCustomerKey } from '../../shared/api-keys';
import type { AnswerOf, BodyOf } from '../../shared/contract/client';
import { newId } from '../../shared/ids';
import type { ReleaseStatus } from '../../shared/releases/lifecycle';
import type { Arch, Platform } from '../../shared/releases/platforms';
import type { FileType } from '../../shared/releases/file-types';
import type { Store } from '../../shared/store/store';
import { contentStorageKey } from '../../shared/uploads/storage-keys';
import { apiKey, at, customer, file } from './records';
import type { TestApp } from './test-app';

/** Records created through the API or the store of a running test app (store records themselves: records.ts). */
let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}`;

/**
 * An application as created naming nothing else: its uploads publish at once unless they say
 * otherwise; a test of drafts says so in `overrides` (`defaultVersionStatus: 'draft'`).
 */
export async function createApplication(app: TestApp, overrides: Partial<BodyOf<'createApplication'>> = {}): Promise<AnswerOf<'createApplication'>> {
  return app.api.createApplication({ applicationId: unique('app'), name: 'Test application', ...overrides });
}

/** A customer and a working key, written through the store. */
export async function createCustomer(app: TestApp, overrides: { tier?: string; isActive?: boolean; customerId?: string; name?: string } = {}) {
  const now = new Date();
  const customerId = overrides.customerId ?? unique('cust');
  await app.core.store.accounts.createCustomer(customer(customerId, {
    tier: overrides.tier ?? 'standard',
    isActive: overrides.isActive ?? true,
    ...(overrides.name !== undefined ? { name: overrides.name } : {}),
    createdAt: now,
    updatedAt: now,
  }));
  const issued = issueCustomerKey(customerId);
  await app.core.store.accounts.createApiKey(apiKey(newId('key'), { customerId, keyHash: issued.keyHash, prefix: issued.prefix, createdAt: now }));
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

export async function uploadSmallFile(app: TestApp, upload: SmallUpload): Promise<AnswerOf<'uploadSmallFile'>> {
  return app.api.uploadSmallFile(smallUploadForm(upload));
}

export const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** A scoped admin key issued through the API by the root key. */
export async function createAdminKey(app: TestApp, request: Omit<BodyOf<'createAdminKey'>, 'name'> & { name?: string }): Promise<AnswerOf<'createAdminKey'>> {
  return app.api.createAdminKey({ name: 'Test key', ...request });
}

export interface ReleaseFileSpec {
  platform?: Platform;
  arch?: Arch;
  fileType?: FileType;
  fileName?: string;
}

export interface ReleaseSpec {
  channel?: string;
  status?: ReleaseStatus;
  requiredTier?: string;
  rolloutPercentage?: number;
  releaseNotes?: string;
  /** Minutes after the records' origin (records.ts `at`). */
  createdAt?: number;
  /** One MAIN file for any platform and arch when left out. */
  files?: ReleaseFileSpec[];
}

/** The id storeRelease gives the n-th file of a version: an id as the service issues them. */
export const releaseFileId = (applicationId: string, version: string, n: number): string =>
  `fil_${applicationId}_${version.replace(/[^A-Za-z0-9_-]/g, '_')}_${n}`;

/**
 * A version with available files, written through the store (no bytes stored): file n has the id
 * releaseFileId(applicationId, version, n) and is named `<version>-<platform>-<arch>-<n>.bin` unless named.
 * Write it before the application is first asked for, or through the invalidation bus.
 */
export async function storeRelease(store: Store, applicationId: string, version: string, spec: ReleaseSpec = {}): Promise<string[]> {
  const createdAt = at(spec.createdAt ?? 0);
  await store.versions.upsertVersion(applicationId, version, {
    channel: spec.channel,
    requiredTier: spec.requiredTier,
    rolloutPercentage: spec.rolloutPercentage,
    releaseNotes: spec.releaseNotes,
    initialStatus: spec.status === 'draft' ? 'draft' : 'published',
  }, createdAt);
  if (spec.status === 'yanked') await store.versions.transitionVersion(applicationId, version, 'yanked', createdAt);
  const fileIds: string[] = [];
  for (const [n, given] of (spec.files ?? [{}]).entries()) {
    const fileId = releaseFileId(applicationId, version, n);
    await store.versions.insertFile(file(fileId, {
      applicationId,
      version,
      fileName: given.fileName ?? `${version}-${given.platform ?? 'any'}-${given.arch ?? 'any'}-${n}.bin`,
      fileType: given.fileType ?? 'MAIN',
      platform: given.platform ?? 'any',
      arch: given.arch ?? 'any',
      storageKey: `files/${applicationId}/${fileId}`,
      createdAt: at((spec.createdAt ?? 0) + n / 100),
    }));
    fileIds.push(fileId);
  }
  return fileIds;
}

/** The object a file's bytes are stored under: its record's storageKey, which never leaves the service. */
export async function storageKeyOf(app: TestApp, fileId: string): Promise<string> {
  const record = await app.core.store.versions.getFile(fileId);
  if (!record) throw new Error(`file ${fileId} has no record`);
  return record.storageKey;
}

/** A file's content-addressed object, named by the checksum its upload answered (null only before its bytes are checked). */
export function contentObjectOf(applicationId: string, file: { checksum: string | null }): string {
  if (file.checksum === null) throw new Error(`the file has no checksum yet`);
  return contentStorageKey(applicationId, file.checksum.replace(/^sha256:/, ''));
}
