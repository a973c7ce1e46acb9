import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../../cli/program';
import { DIST_DIR } from '../support/node-process';
import { startTestApp, TestApp } from '../support/test-app';

const REPO_ROOT = path.resolve(DIST_DIR, '..');

/** Where a person finds an operation: a `bds` command (its words), a console source file, or both. */
interface Offered {
  cli?: string;
  /** A file under web/console/ that sends the request. */
  console?: string;
}

/**
 * Every operation of the API description, and where a vendor (or a customer, for the customer's
 * routes) reaches it without writing HTTP by hand: the CLI, the console, or both.
 */
const OFFERED: Record<string, Offered> = {
  abortUpload: { cli: 'uploads abort', console: 'uploads/browser-upload.ts' },
  acceptLicence: { cli: 'download' },
  completeMultipartUpload: { cli: 'upload', console: 'uploads/browser-upload.ts' },
  createMultipartPartUrls: { cli: 'upload', console: 'uploads/browser-upload.ts' },
  createMultipartUpload: { cli: 'upload', console: 'uploads/browser-upload.ts' },
  getUpload: { cli: 'uploads show', console: 'uploads/browser-upload.ts' },
  uploadSmallFile: { cli: 'upload' },
  createAccessToken: { cli: 'tokens create', console: 'pages/customer-tokens.tsx' },
  listAccessTokens: { cli: 'tokens list', console: 'pages/customer-tokens.tsx' },
  getAccessToken: { cli: 'tokens show' },
  updateAccessToken: { cli: 'tokens update' },
  revokeAccessToken: { cli: 'tokens revoke', console: 'pages/customer-tokens.tsx' },
  createAdminKey: { cli: 'admin-keys create', console: 'pages/admin-keys.tsx' },
  listAdminKeys: { cli: 'admin-keys list', console: 'pages/admin-keys.tsx' },
  revokeAdminKey: { cli: 'admin-keys revoke', console: 'pages/admin-keys.tsx' },
  listAuditEntries: { cli: 'audit', console: 'pages/audit.tsx' },
  createApplication: { cli: 'applications create', console: 'pages/applications.tsx' },
  listApplications: { cli: 'applications list', console: 'pages/applications.tsx' },
  getApplication: { cli: 'applications show', console: 'pages/application.tsx' },
  updateApplication: { cli: 'applications update', console: 'pages/application.tsx' },
  deleteApplication: { cli: 'applications delete', console: 'pages/application.tsx' },
  restoreApplication: { cli: 'applications restore', console: 'pages/application.tsx' },
  setApplicationLogo: { cli: 'applications logo set', console: 'application-logo.tsx' },
  removeApplicationLogo: { cli: 'applications logo remove', console: 'application-logo.tsx' },
  getAdminApplicationLogo: { console: 'application-logo.tsx' },
  listVersions: { cli: 'versions list', console: 'pages/customer.tsx' },
  updateVersion: { cli: 'versions update', console: 'pages/version.tsx' },
  deleteDraftVersion: { cli: 'versions delete', console: 'pages/version.tsx' },
  deleteVersionFile: { cli: 'files delete', console: 'pages/version.tsx' },
  getAdminFileDownloadUrl: { cli: 'download' },
  createCustomer: { cli: 'customers create', console: 'pages/customers.tsx' },
  listCustomers: { cli: 'customers list', console: 'pages/customers.tsx' },
  getCustomer: { cli: 'customers show', console: 'pages/customer.tsx' },
  updateCustomer: { cli: 'customers update', console: 'pages/customer.tsx' },
  deleteCustomer: { cli: 'customers delete', console: 'pages/customer.tsx' },
  grantCustomerApplicationAccess: { cli: 'customers grant', console: 'pages/customer.tsx' },
  revokeCustomerApplicationAccess: { cli: 'customers revoke', console: 'pages/customer.tsx' },
  issueCustomerApiKey: { cli: 'customers keys create', console: 'pages/customer.tsx' },
  listCustomerApiKeys: { cli: 'customers keys list', console: 'pages/customer.tsx' },
  revokeCustomerApiKey: { cli: 'customers keys revoke', console: 'pages/customer.tsx' },
  createCustomerShareLink: { console: 'pages/customer.tsx' },
  listCustomerShareLinks: { console: 'pages/customer.tsx' },
  revokeCustomerShareLink: { console: 'pages/customer.tsx' },
  createShareLink: { cli: 'share create' },
  revokeShareLink: { cli: 'share revoke' },
  getDownloadUrl: { cli: 'download' },
  getLicence: { cli: 'download' },
  listReleases: { cli: 'releases' },
  getApplicationStatistics: { cli: 'stats', console: 'pages/statistics.tsx' },
  getApplicationAdoption: { cli: 'stats adoption', console: 'pages/statistics.tsx' },
  listCustomerAdoption: { cli: 'stats adoption' },
  listActivity: { cli: 'activity', console: 'pages/activity.tsx' },
  createWebhook: { cli: 'webhooks create', console: 'pages/webhooks.tsx' },
  listWebhooks: { cli: 'webhooks list', console: 'pages/webhooks.tsx' },
  getWebhook: { cli: 'webhooks show', console: 'pages/webhook.tsx' },
  updateWebhook: { cli: 'webhooks update', console: 'pages/webhook.tsx' },
  deleteWebhook: { cli: 'webhooks delete', console: 'pages/webhook.tsx' },
  rotateWebhookSecret: { cli: 'webhooks rotate-secret', console: 'pages/webhook.tsx' },
  listWebhookDeliveries: { cli: 'webhooks deliveries', console: 'pages/webhook.tsx' },
  redeliverWebhookDelivery: { cli: 'webhooks redeliver', console: 'pages/webhook.tsx' },
  getCaller: { cli: 'login', console: 'caller.ts' },
  purgeApplicationReleases: { cli: 'applications purge', console: 'pages/application.tsx' },
  getVersionHealth: { cli: 'versions rollout health', console: 'pages/version-health.tsx' },
  resumeVersionRollout: { cli: 'versions rollout resume', console: 'pages/version-health.tsx' },
  stopVersionRollout: { cli: 'versions rollout stop', console: 'pages/version-health.tsx' },
  getApplicationRepositories: { cli: 'repos', console: 'pages/repositories.tsx' },
  rotateRepositoryKey: { cli: 'repos rotate-key', console: 'pages/repositories.tsx' },
  importRepositoryKey: { cli: 'repos import-key', console: 'pages/repositories.tsx' },
  getTufRepository: { cli: 'tuf show' },
  uploadTufRoot: { cli: 'tuf init' },
  addFileAttestation: { cli: 'attestations add', console: 'file-attestations.tsx' },
  listFileAttestations: { cli: 'attestations list', console: 'file-attestations.tsx' },
  listDownloadAttestations: { cli: 'attestations list' },
  addAttestationKey: { cli: 'attestations add-key' },
  listAttestationKeys: { cli: 'attestations keys' },
};

/** Operations neither offers, on purpose, and why. */
const EXCEPTIONS: Record<string, string> = {
  createLargeUpload: 'the single pre-signed PUT, for scripts and CI: the CLI and the console send large files with the multipart protocol',
  completeLargeUpload: 'the single pre-signed PUT, for scripts and CI: the CLI and the console send large files with the multipart protocol',
  checkSquirrelMacUpdate: "an update client's feed, read by the vendor's applications",
  checkTauriUpdate: "an update client's feed, read by the vendor's applications",
  reportUpdate: "sent by the vendor's installed applications about their updates",
  getElectronChannelFile: "an update client's feed, read by the vendor's applications",
  getElectronUpdateFile: "an update client's download, made by the vendor's applications",
  getSparkleAppcast: "an update client's feed, read by the vendor's applications",
  getSquirrelWindowsChannelReleases: "an update client's feed, read by the vendor's applications",
  getSquirrelWindowsReleases: "an update client's feed, read by the vendor's applications",
  getSquirrelWindowsPackage: "an update client's download, made by the vendor's applications",
  getVelopackChannelReleases: "an update client's feed, read by the vendor's applications",
  getVelopackReleases: "an update client's feed, read by the vendor's applications",
  getVelopackReleaseFeed: "an update client's feed, read by the vendor's applications",
  getVelopackPackage: "an update client's download, made by the vendor's applications",
  getLatestDownload: 'a stable link to the newest build, for a web page or a script to link to',
  getLatestDownloadForArch: 'a stable link to the newest build, for a web page or a script to link to',
  useShareLink: 'the share link itself, opened by whoever was given it',
  readSignedObject: "the embedded store's signed URLs, reached through the URLs other answers hand out",
  writeSignedObject: "the embedded store's signed URLs, reached through the URLs other answers hand out",
  listCustomerApplications: "the customer's own list, which the download portal shows (the CLI's releases command lists one application's)",
  getApplicationLogo: 'the logo the download portal shows a customer',
  getLandingPage: 'the page a browser opening the service sees',
  getFavicon: "the icon of the service's pages",
  getVendor: 'the vendor as the pages shown before signing in name it (the portal\'s sign-in, a share link\'s error page); set by VENDOR_NAME',
  getVendorLogo: 'the logo those pages show; set by VENDOR_LOGO',
  getApiDescription: 'the API description itself, for tools and people writing their own client',
  getApiReferencePage: 'the API description as a page to read, for people writing their own client',
  getHealth: 'for load balancers and monitors',
  getReadiness: 'for load balancers and monitors',
  getMetrics: 'for Prometheus',
  getTufMetadata: "a TUF repository, read by a TUF client (tuf-js, python-tuf) on the customers' machines (docs/verifying-releases.md)",
  getTufTarget: "a TUF repository, read by a TUF client (tuf-js, python-tuf) on the customers' machines (docs/verifying-releases.md)",
  getAptRepositoryKey: "a package manager's repository, read by apt or dnf on the customers' machines (bds repos prints the setup)",
  getAptInRelease: "a package manager's repository, read by apt or dnf on the customers' machines (bds repos prints the setup)",
  getAptRelease: "a package manager's repository, read by apt or dnf on the customers' machines (bds repos prints the setup)",
  getAptReleaseSignature: "a package manager's repository, read by apt or dnf on the customers' machines (bds repos prints the setup)",
  getAptPackages: "a package manager's repository, read by apt or dnf on the customers' machines (bds repos prints the setup)",
  getAptIndexByHash: "a package manager's repository, read by apt or dnf on the customers' machines (bds repos prints the setup)",
  getAptPackage: "a package manager's repository, read by apt or dnf on the customers' machines (bds repos prints the setup)",
  getRpmRepositoryKey: "a package manager's repository, read by apt or dnf on the customers' machines (bds repos prints the setup)",
  getRpmRepomd: "a package manager's repository, read by apt or dnf on the customers' machines (bds repos prints the setup)",
  getRpmRepomdSignature: "a package manager's repository, read by apt or dnf on the customers' machines (bds repos prints the setup)",
  getRpmMetadata: "a package manager's repository, read by apt or dnf on the customers' machines (bds repos prints the setup)",
  getRpmRepoFile: "a package manager's repository, read by apt or dnf on the customers' machines (bds repos prints the setup)",
  getRpmPackage: "a package manager's repository, read by apt or dnf on the customers' machines (bds repos prints the setup)",
};

/** The command named by its words, or undefined. */
function findCommand(program: Command, words: string): Command | undefined {
  let command: Command | undefined = program;
  for (const word of words.split(' ')) command = command?.commands.find((c) => c.name() === word || c.aliases().includes(word));
  return command;
}

describe('console and CLI parity with the API description', function () {
  this.timeout(60_000);
  let app: TestApp;
  let operations: { operationId: string; method: string; path: string }[];

  before(async () => {
    // With a metrics token, so the description holds every route the service may serve.
    app = await startTestApp({ workers: false, env: { METRICS_TOKEN: 'parity-test-metrics-token-0123456789abcdef' } });
    const document = (await app.http.get('/v1/openapi.json')).body as { paths: Record<string, Record<string, { operationId?: string }>> };
    operations = Object.entries(document.paths).flatMap(([apiPath, methods]) => Object.entries(methods)
      .filter(([method, operation]) => method !== 'head' && typeof operation === 'object' && operation !== null && 'operationId' in operation)
      .map(([method, operation]) => ({ operationId: operation.operationId as string, method, path: apiPath })));
  });
  after(async () => {
    await app?.close();
  });

  it('offers every operation in the console or the CLI, but for the exceptions named here', () => {
    const missing = operations.filter((op) => !OFFERED[op.operationId] && !EXCEPTIONS[op.operationId]).map((op) => `${op.operationId} (${op.method.toUpperCase()} ${op.path})`);
    expect(missing, 'operations neither the console nor the CLI offers: add them to one, or to the exceptions with the reason').to.deep.equal([]);
    for (const id of Object.keys(OFFERED)) expect(EXCEPTIONS, `${id} is both offered and an exception`).not.to.have.property(id);
  });

  it('names only operations the API description has', () => {
    const known = new Set(operations.map((op) => op.operationId));
    expect([...Object.keys(OFFERED), ...Object.keys(EXCEPTIONS)].filter((id) => !known.has(id))).to.deep.equal([]);
  });

  it('names CLI commands that exist', () => {
    const program = buildProgram(false);
    const absent = Object.entries(OFFERED).filter(([, offered]) => offered.cli && !findCommand(program, offered.cli)).map(([id, offered]) => `${id}: bds ${offered.cli}`);
    expect(absent).to.deep.equal([]);
  });

  it("names console files that send the operation's request (a call of the typed client's method for it)", () => {
    const wrong: string[] = [];
    for (const op of operations) {
      const file = OFFERED[op.operationId]?.console;
      if (!file) continue;
      const source = fs.readFileSync(path.join(REPO_ROOT, 'web', 'console', file), 'utf8');
      // The console calls the API only through the client derived from the operations table (web/common/api.ts).
      // A call (`client.x(`), a method picked (`client.x :`), or a URL the client builds for it (`client.path('x', ...)`).
      if (!new RegExp(`\\.${op.operationId}\\b|'${op.operationId}'`).test(source)) wrong.push(`${op.operationId}: ${file} never calls the client's ${op.operationId}`);
    }
    expect(wrong).to.deep.equal([]);
  });
});
