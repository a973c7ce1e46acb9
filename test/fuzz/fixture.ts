import { randomBytes } from 'node:crypto';
import { smallUploadForm, SmallUpload } from '../support/factories';
import { pngImage } from '../support/images';
import type { HttpClient, HttpResult } from '../support/http-client';

export interface SeededCustomer {
  customerId: string;
  apiKey: string;
  keyId: string;
}

export interface SeededAdminKey {
  keyId: string;
  apiKey: string;
}

export interface SeededFile {
  fileId: string;
  fileName: string;
  /** Its SHA-256, hex. */
  sha256: string;
}

/**
 * Records of every kind, created through the API, for the generated requests to aim at (and miss):
 * a property can only show that a refused request changed nothing if there is something to change.
 * Ids carry a tag of their own, so records seeded again after a failure never meet earlier ones.
 */
export interface Fixture {
  tag: string;
  apps: {
    /** Lists every seeded customer; versions OPEN, PREMIUM and PENDING. */
    main: string;
    /** Soft-deleted. */
    deleted: string;
    /** No customers, no versions: the one a DELETE aims at. */
    spare: string;
    /** Named by no request: the one application the `elsewhere` admin key is limited to. */
    limited: string;
  };
  versions: { open: string; premium: string; pending: string };
  /** OPEN's MAIN file (any platform) and its update signature, a DEPENDENCY, and PREMIUM's MAIN file. */
  files: { main: SeededFile; signature: SeededFile; dependency: SeededFile; premium: SeededFile };
  /** `spare` is on no application: the one a DELETE aims at. */
  customers: { free: SeededCustomer; premium: SeededCustomer; inactive: SeededCustomer; spare: SeededCustomer };
  /** A draft version of main with one file: the version and file DELETEs aim at them. */
  draft: { version: string; file: SeededFile };
  /** Further keys of the premium customer: one to aim a revocation at, one revoked already. */
  keys: { spare: SeededCustomer; revoked: SeededCustomer };
  /** Access tokens of the premium customer: one to aim changes and a revocation at, one revoked already. */
  tokens: { spare: string; revoked: string };
  /** Access tokens of the premium customer as sent in a path (`/t/{token}`): one live, one whose one download is spent. */
  pathTokens: { live: string; spent: string };
  /**
   * Scoped admin keys: one to aim a revocation at, one revoked already, and one with every scope but
   * admin, limited to an application no request names (refused everywhere with 403).
   */
  adminKeys: { spare: SeededAdminKey; revoked: SeededAdminKey; elsewhere: SeededAdminKey };
  /** A large upload issued for main/PENDING and never sent: its PUT URL (path and query) and fields. */
  upload: { uploadId: string; target: string; fileName: string; fileSize: number; version: string };
  /** A multipart upload opened for main/PENDING and never sent (an OTHER file): its id, fields and part count. */
  multipart: { uploadId: string; fileName: string; fileSize: number; partCount: number; version: string };
  /** Share links of the premium customer for main/OPEN. */
  /** Tokens of the premium customer's links; `managed`: one the vendor's revocation by id aims at. */
  shares: { active: string; spare: string; revoked: string; managed: string };
  /** The SHA-256 of the main application's logo (a PNG). */
  logoSha256: string;
  /** A signed download URL of the main file (path and query). */
  downloadTarget: string;
  /**
   * Webhook endpoints subscribed to an event no request here makes, so nothing is delivered to them
   * and their records stay as seeded: one to aim changes at, one a DELETE aims at.
   */
  webhooks: { main: string; spare: string };
}

export const FIXTURE_VERSIONS = { open: '1.0.0', premium: '2.0.0', pending: '3.0.0' } as const;
export const FIXTURE_DRAFT_VERSION = '4.0.0-draft';
export const FIXTURE_RELEASE_NOTES = { open: 'first release', premium: 'for premium customers' } as const;
export const PENDING_FILE_SIZE = 1000;
/** Three parts of the smallest part size (8 MiB), the last one short. */
export const MULTIPART_FILE_SIZE = 20 * 1024 * 1024;

export async function seedFixture(http: HttpClient): Promise<Fixture> {
  const tag = randomBytes(4).toString('hex');
  const customer = async (name: string, tier: string): Promise<SeededCustomer> => {
    const created = expectStatus(await http.post('/v1/management/customers', { customerId: `${name}-${tag}`, name: `${name} ${tag}`, tier }), 201);
    return { customerId: created.customerId, apiKey: created.apiKey, keyId: created.keyId };
  };
  const free = await customer('free', 'free');
  const premium = await customer('premium', 'premium');
  const inactive = await customer('inactive', 'standard');
  const spareCustomer = await customer('spare', 'standard');
  expectStatus(await http.patch(`/v1/management/customers/${inactive.customerId}`, { isActive: false }), 200);
  const extraKey = async (): Promise<SeededCustomer> => {
    const issued = expectStatus(await http.post(`/v1/management/customers/${premium.customerId}/apikeys`, {}), 201);
    return { customerId: premium.customerId, apiKey: issued.apiKey, keyId: issued.keyId };
  };
  const spareKey = await extraKey();
  const revokedKey = await extraKey();
  expectStatus(await http.delete(`/v1/management/customers/${premium.customerId}/apikeys/${revokedKey.keyId}`), 200);

  const token = async (): Promise<string> =>
    expectStatus(await http.post(`/v1/management/customers/${premium.customerId}/tokens`, { maxDownloads: 1000 }), 201).tokenId as string;
  const tokens = { spare: await token(), revoked: await token() };
  expectStatus(await http.delete(`/v1/management/customers/${premium.customerId}/tokens/${tokens.revoked}`), 200);

  const application = async (name: string, customerIds: string[]) => {
    const applicationId = `${name}-${tag}`;
    expectStatus(await http.post('/v1/management/applications', { applicationId, name: `${name} ${tag}`, tags: ['fuzz'], customerIds, defaultVersionStatus: 'published' }), 201);
    return applicationId;
  };
  const main = await application('main', [free.customerId, premium.customerId, inactive.customerId]);
  const deleted = await application('deleted', [premium.customerId]);
  const spare = await application('spare', []);
  const limited = await application('limited', []);
  const logo = expectStatus(await http.request('PUT', `/v1/management/applications/${main}/logo`, { body: pngImage(16), headers: { 'content-type': 'image/png' } }), 200);
  expectStatus(await http.delete(`/v1/management/applications/${deleted}`), 200);

  const adminKey = async (scopes: string[], applicationIds?: string[]): Promise<SeededAdminKey> => {
    const issued = expectStatus(await http.post('/v1/management/apikeys', { name: `fuzz ${tag}`, scopes, applicationIds }), 201);
    return { keyId: issued.keyId, apiKey: issued.apiKey };
  };
  const adminKeys = { spare: await adminKey(['read']), revoked: await adminKey(['admin']), elsewhere: await adminKey(['publish', 'read', 'manage'], [limited]) };
  expectStatus(await http.delete(`/v1/management/apikeys/${adminKeys.revoked.keyId}`), 200);

  const upload = async (fields: Omit<SmallUpload, 'applicationId'>): Promise<SeededFile> => {
    const form = smallUploadForm({ applicationId: main, ...fields });
    const file = expectStatus(await http.request('POST', '/v1/management/upload', { body: form }), 201);
    return { fileId: file.fileId, fileName: file.fileName, sha256: (file.checksum as string).replace(/^sha256:/, '') };
  };
  const mainFile = await upload({ version: FIXTURE_VERSIONS.open, fileName: `setup-${tag}.exe`, releaseNotes: FIXTURE_RELEASE_NOTES.open });
  const signature = await upload({ version: FIXTURE_VERSIONS.open, fileName: `setup-${tag}.exe.sig`, fileType: 'SIGNATURE' });
  const dependency = await upload({ version: FIXTURE_VERSIONS.open, fileName: 'runtime.dll', fileType: 'DEPENDENCY' });
  const premiumFile = await upload({
    version: FIXTURE_VERSIONS.premium,
    fileName: `setup-${tag}.exe`,
    releaseNotes: FIXTURE_RELEASE_NOTES.premium,
    requiredTier: 'premium',
  });

  const draftFile = await upload({ version: FIXTURE_DRAFT_VERSION, fileName: `draft-${tag}.exe`, status: 'draft' });

  const pendingName = `big-${tag}.bin`;
  const issued = expectStatus(await http.post('/v1/management/upload/large-url', {
    applicationId: main,
    version: FIXTURE_VERSIONS.pending,
    fileName: pendingName,
    fileSize: PENDING_FILE_SIZE,
  }), 201);

  const multipartName = `parts-${tag}.bin`;
  const opened = expectStatus(await http.post('/v1/management/uploads/multipart', {
    applicationId: main,
    version: FIXTURE_VERSIONS.pending,
    fileName: multipartName,
    fileSize: MULTIPART_FILE_SIZE,
    fileType: 'OTHER',
  }), 201);

  const share = async () => {
    const created = expectStatus(await http.post('/v1/downloads/share', { applicationId: main, version: FIXTURE_VERSIONS.open }, { key: premium.apiKey }), 201);
    return created.token as string;
  };
  const shares = { active: await share(), spare: await share(), revoked: await share(), managed: await share() };
  expectStatus(await http.delete(`/v1/downloads/share/${shares.revoked}`, { key: premium.apiKey }), 200);

  const webhook = async (name: string) =>
    expectStatus(await http.post('/v1/management/webhooks', { url: `https://${name}-${tag}.example.com/in`, events: ['version.yanked'], description: name }), 201).webhookId as string;
  const webhooks = { main: await webhook('main'), spare: await webhook('spare') };

  const download = expectStatus(await http.get(`/v1/downloads/url?applicationId=${main}&version=${FIXTURE_VERSIONS.open}`, { key: premium.apiKey }), 200);
  const pathToken = async (limits: Record<string, number>) =>
    expectStatus(await http.post(`/v1/management/customers/${premium.customerId}/tokens`, limits), 201).token as string;
  const pathTokens = { live: await pathToken({ maxDownloads: 1_000_000 }), spent: await pathToken({ maxDownloads: 1 }) };
  expectStatus(await http.get(`/v1/downloads/url?applicationId=${main}&version=${FIXTURE_VERSIONS.open}`, { key: pathTokens.spent }), 200);

  return {
    tag,
    logoSha256: logo.logo.sha256 as string,
    apps: { main, deleted, spare, limited },
    versions: { ...FIXTURE_VERSIONS },
    files: { main: mainFile, signature, dependency, premium: premiumFile },
    customers: { free, premium, inactive, spare: spareCustomer },
    draft: { version: FIXTURE_DRAFT_VERSION, file: draftFile },
    keys: { spare: spareKey, revoked: revokedKey },
    tokens,
    pathTokens,
    adminKeys,
    upload: { uploadId: issued.uploadId, target: pathAndQuery(issued.uploadUrl), fileName: pendingName, fileSize: PENDING_FILE_SIZE, version: FIXTURE_VERSIONS.pending },
    multipart: { uploadId: opened.uploadId, fileName: multipartName, fileSize: MULTIPART_FILE_SIZE, partCount: opened.partCount, version: FIXTURE_VERSIONS.pending },
    shares,
    downloadTarget: pathAndQuery(download.downloadUrl),
    webhooks,
  };
}

function expectStatus(response: HttpResult, status: number) {
  if (response.status !== status) throw new Error(`seeding the fixture: expected ${status}, got ${response.status} ${response.raw.toString()}`);
  return response.body.data;
}

function pathAndQuery(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}
