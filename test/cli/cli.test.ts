import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createApplication, createCustomer, uploadSmallFile } from '../support/factories';
import { pngImage } from '../support/images';
import { CliUser, errorOf, eventsOf, jsonOf } from '../support/cli-process';
import { pollUntil } from '../support/poll';
import { startTestApp, TestApp } from '../support/test-app';
import { findFreePort } from '../../shared/net';
import { TransferProxy } from '../support/transfer-proxy';
import { buildDeb } from '../support/linux-packages';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
let counter = 0;
const uniqueId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}`;

describe('bds CLI', function () {
  this.timeout(60_000);
  let app: TestApp;
  let admin: CliUser;
  /** Signed object URLs (downloads, parts) go through it, so a test can break a transfer mid-way. */
  let proxy: TransferProxy;

  before(async () => {
    proxy = await TransferProxy.start();
    app = await startTestApp({ env: { PUBLIC_BASE_URL: proxy.url } });
    proxy.forwardTo(app.baseUrl);
    admin = new CliUser({ BDS_URL: app.baseUrl, BDS_API_KEY: app.adminKey });
  });
  afterEach(() => proxy.clearRule());
  after(async () => {
    admin?.remove();
    await app?.close();
    await proxy?.close();
  });

  describe('configuration and exit codes', () => {
    let user: CliUser;
    beforeEach(() => {
      user = new CliUser();
    });
    afterEach(() => user.remove());

    it('without BDS_URL, BDS_API_KEY or a profile: a usage error (2) that says how to configure', async () => {
      const result = await user.run(['apps', 'list', '--json']);
      expect(result.code).to.equal(2);
      expect(result.stdout).to.equal('');
      expect(errorOf(result).message).to.match(/BDS_URL.*BDS_API_KEY.*bds login/);
    });

    it('login reads the key from stdin, never prints it, and writes a profile readable by its owner only', async () => {
      const login = await user.run(['login', '--url', `${app.baseUrl}/`, '--json'], { input: `${app.adminKey}\n` });
      expect(login.code, login.stderr).to.equal(0);
      const saved = jsonOf<{ profile: string; url: string; keyKind: string; configFile: string }>(login);
      expect(saved).to.include({ profile: 'default', url: app.baseUrl, keyKind: 'admin' });
      expect(login.stdout + login.stderr).to.not.include(app.adminKey);
      expect(fs.statSync(saved.configFile).mode & 0o777).to.equal(0o600);
      expect(saved.configFile.startsWith(path.join(user.home, 'config'))).to.equal(true);

      const listed = await user.run(['apps', 'list', '--json']);
      expect(listed.code, listed.stderr).to.equal(0);
      expect(jsonOf(listed)).to.have.property('applications');

      const logout = await user.run(['logout', '--json']);
      expect(jsonOf(logout)).to.deep.equal({ profile: 'default', removed: true });
      expect((await user.run(['apps', 'list', '--json'])).code).to.equal(2);
    });

    it('login refuses a key the service does not know (1) and saves nothing; named profiles are kept apart', async () => {
      const refused = await user.run(['login', '--url', app.baseUrl, '--json'], { input: 'adm_not-a-key-of-this-service-at-all' });
      expect(refused.code).to.equal(1);
      expect(errorOf(refused)).to.include({ status: 401, code: 'UNAUTHORIZED' });
      expect(fs.existsSync(path.join(user.home, 'config', 'bds', 'config.json'))).to.equal(false);

      const customer = await createCustomer(app);
      const login = await user.run(['login', '--url', app.baseUrl, '--profile', 'shop', '--json'], { input: customer.apiKey });
      expect(jsonOf(login)).to.include({ profile: 'shop', keyKind: 'customer' });
      expect((await user.run(['apps', 'list', '--json'])).code, 'the default profile is still missing').to.equal(2);
      const forbidden = await user.run(['apps', 'list', '--profile', 'shop', '--json']);
      expect(forbidden.code).to.equal(1);
      expect(errorOf(forbidden)).to.include({ status: 403 });
    });

    it('a usage error is 2, an API error 1 (with the envelope), a network error 3', async () => {
      const usage = await admin.run(['apps', 'create', 'x', '--json']);
      expect(usage.code).to.equal(2);
      expect(usage.stderr).to.match(/--name/);
      expect((await admin.run(['apps', 'frobnicate'])).code).to.equal(2);
      expect((await admin.run(['apps', 'list', '--page', 'zero'])).code).to.equal(2);

      const missing = await admin.run(['apps', 'show', 'no-such-app', '--json']);
      expect(missing.code).to.equal(1);
      expect(errorOf(missing)).to.include({ status: 404, code: 'NOT_FOUND', exitCode: 1 });
      expect(errorOf(missing).requestId).to.be.a('string');

      const invalid = await admin.run(['apps', 'create', 'Not Valid', '--name', 'x', '--json']);
      expect(invalid.code).to.equal(1);
      expect(errorOf(invalid)).to.include({ status: 400, code: 'VALIDATION_ERROR' });
      expect(errorOf(invalid).details).to.be.an('array').that.is.not.empty;

      const closedPort = await findFreePort();
      const unreachable = await user.run(['apps', 'create', 'x', '--name', 'x', '--json'], { env: { BDS_URL: `http://127.0.0.1:${closedPort}`, BDS_API_KEY: app.adminKey } });
      expect(unreachable.code).to.equal(3);
      expect(errorOf(unreachable)).to.include({ code: 'ECONNREFUSED', exitCode: 3 });
    });
  });

  describe('applications, versions, customers and keys', () => {
    it('applications: create, list, show, update, delete, restore', async () => {
      const applicationId = uniqueId('cli-app');
      const created = await admin.run(['apps', 'create', applicationId, '--name', 'CLI app', '--tag', 'desktop', '--tag', 'beta', '--json']);
      expect(created.code, created.stderr).to.equal(0);
      expect(jsonOf(created)).to.include({ applicationId, name: 'CLI app', isActive: true });
      expect(jsonOf<{ tags: string[] }>(created).tags).to.deep.equal(['desktop', 'beta']);

      const listed = jsonOf<{ applications: { applicationId: string }[]; pagination: { total: number } }>(await admin.run(['applications', 'list', '--tag', 'desktop', '--page-size', '100', '--json']));
      expect(listed.applications.map((a) => a.applicationId)).to.include(applicationId);

      const updated = jsonOf<{ name: string; tags: string[]; description: string }>(await admin.run(['apps', 'update', applicationId, '--name', 'Renamed', '--no-tags', '--description', 'About it', '--json']));
      expect(updated).to.deep.include({ name: 'Renamed', tags: [], description: 'About it' });

      const shown = jsonOf<{ applicationId: string; versions: unknown[] }>(await admin.run(['apps', 'show', applicationId, '--json']));
      expect(shown).to.deep.include({ applicationId, versions: [] });

      const deleted = jsonOf<{ applicationId: string; deletedAt: string }>(await admin.run(['apps', 'delete', applicationId, '--json']));
      expect(deleted.applicationId).to.equal(applicationId);
      expect(deleted.deletedAt).to.be.a('string');
      expect((await admin.run(['apps', 'show', applicationId, '--json'])).code).to.equal(1);
      expect(jsonOf(await admin.run(['apps', 'show', applicationId, '--include-deleted', '--json']))).to.include({ isActive: false });

      // Deleted moments ago: within RELEASE_PURGE_AFTER_DAYS, its releases are kept (and a purge asks for the id again).
      const unconfirmed = await admin.run(['apps', 'purge', applicationId, '--confirm', 'other', '--json']);
      expect(unconfirmed.code).to.equal(2);
      const early = await admin.run(['apps', 'purge', applicationId, '--confirm', applicationId, '--json']);
      expect(early.code).to.equal(1);
      expect(errorOf(early)).to.include({ status: 409 });
      expect(String(errorOf(early).message)).to.match(/less than 90 days ago/);

      const restored = jsonOf(await admin.run(['apps', 'restore', applicationId, '--json']));
      expect(restored).to.include({ applicationId, isActive: true, deletedAt: null });

      const human = await admin.run(['apps', 'list', '--page-size', '100']);
      expect(human.code).to.equal(0);
      expect(human.stdout).to.include(applicationId).and.to.match(/page 1 of \d+/);
    });

    it('applications: sets a logo from a file and removes it, in JSON and in words, and refuses a file that is not an image', async () => {
      const applicationId = uniqueId('cli-logo');
      await admin.run(['apps', 'create', applicationId, '--name', 'Logo app']);
      const png = pngImage(20);
      const file = path.join(admin.home, 'logo.png');
      fs.writeFileSync(file, png);
      const set = await admin.run(['apps', 'logo', 'set', applicationId, file, '--json']);
      expect(set.code, set.stderr).to.equal(0);
      expect(jsonOf<{ logo: Record<string, unknown> }>(set).logo).to.include({ contentType: 'image/png', size: png.length, sha256: sha256(png) });
      const shown = await admin.run(['apps', 'show', applicationId]);
      expect(shown.stdout).to.match(new RegExp(`logo: +image/png, .+, sha256 ${sha256(png)}`));

      // Named otherwise, its type is given; an SVG is refused by the service, an unknown extension before sending.
      const renamed = path.join(admin.home, 'logo.img');
      fs.writeFileSync(renamed, png);
      expect((await admin.run(['apps', 'logo', 'set', applicationId, renamed, '--type', 'image/png'])).stdout).to.match(/^logo of .+ set: image\/png/);
      expect((await admin.run(['apps', 'logo', 'set', applicationId, renamed, '--json'])).code).to.equal(2);
      const svg = path.join(admin.home, 'logo.svg');
      fs.writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg"/>');
      expect((await admin.run(['apps', 'logo', 'set', applicationId, svg, '--type', 'image/svg+xml', '--json'])).code).to.equal(2);
      const mismatch = await admin.run(['apps', 'logo', 'set', applicationId, svg, '--type', 'image/png', '--json']);
      expect(mismatch.code).to.equal(1);
      expect(errorOf(mismatch).message).to.match(/not a PNG image/);

      const removed = await admin.run(['apps', 'logo', 'remove', applicationId, '--json']);
      expect(removed.code, removed.stderr).to.equal(0);
      expect(jsonOf<{ logo: unknown }>(removed).logo).to.equal(null);
      expect((await admin.run(['apps', 'logo', 'remove', applicationId])).stdout).to.match(/^logo of .+ removed/);
    });

    it('versions: list and update of tier and notes', async () => {
      const applicationId = uniqueId('cli-ver');
      await admin.run(['apps', 'create', applicationId, '--name', 'Versions']);
      const file = path.join(admin.home, 'notes-app.bin');
      fs.writeFileSync(file, randomBytes(2048));
      const upload = await admin.run(['upload', applicationId, '1.0.0', file, '--status', 'published', '--json']);
      expect(upload.code, upload.stderr).to.equal(0);

      const listed = jsonOf<{ versions: { version: string; files: { fileName: string }[] }[] }>(await admin.run(['versions', 'list', applicationId, '--json']));
      expect(listed.versions.map((v) => v.version)).to.deep.equal(['1.0.0']);
      expect(listed.versions[0].files.map((f) => f.fileName)).to.deep.equal(['notes-app.bin']);

      const notesFile = path.join(admin.home, 'NOTES.md');
      fs.writeFileSync(notesFile, '# 1.0.0\n\n- first\n');
      const updated = jsonOf(await admin.run(['versions', 'update', applicationId, '1.0.0', '--tier', 'premium', '--notes-file', notesFile, '--json']));
      expect(updated).to.include({ version: '1.0.0', requiredTier: 'premium', releaseNotes: '# 1.0.0\n\n- first\n' });
      const cleared = jsonOf(await admin.run(['versions', 'update', applicationId, '1.0.0', '--no-tier', '--no-notes', '--json']));
      expect(cleared).to.include({ requiredTier: null, releaseNotes: null });

      const nothing = await admin.run(['versions', 'update', applicationId, '1.0.0', '--json']);
      expect(nothing.code).to.equal(2);

      const sparkle = jsonOf(await admin.run(['versions', 'update', applicationId, '1.0.0', '--bundle-version', '100', '--minimum-system-version', '11.0', '--critical', '--json']));
      expect(sparkle).to.include({ bundleVersion: '100', minimumSystemVersion: '11.0', critical: true });
      const ordinary = jsonOf(await admin.run(['versions', 'update', applicationId, '1.0.0', '--no-bundle-version', '--no-minimum-system-version', '--not-critical', '--json']));
      expect(ordinary).to.include({ bundleVersion: null, minimumSystemVersion: null, critical: false });

      const yanked = jsonOf(await admin.run(['versions', 'update', applicationId, '1.0.0', '--status', 'yanked', '--channel', 'beta', '--rollout', '25', '--json']));
      expect(yanked).to.include({ status: 'yanked', channel: 'beta', rolloutPercentage: 25 });
      const yankedOnly = jsonOf<{ versions: { version: string }[] }>(await admin.run(['versions', 'list', applicationId, '--status', 'yanked', '--json']));
      expect(yankedOnly.versions.map((v) => v.version)).to.deep.equal(['1.0.0']);
      const draftsOnly = jsonOf<{ versions: unknown[] }>(await admin.run(['versions', 'list', applicationId, '--status', 'draft', '--json']));
      expect(draftsOnly.versions).to.deep.equal([]);
      const drafted = await admin.run(['versions', 'update', applicationId, '1.0.0', '--status', 'draft', '--json']);
      expect(drafted.code, 'a yanked version cannot become a draft: an API error').to.equal(1);
      expect(jsonOf(await admin.run(['versions', 'update', applicationId, '1.0.0', '--status', 'published', '--json']))).to.include({ status: 'published' });
    });

    it('customers: create (key shown once), list, show, update; keys: create, list, revoke', async () => {
      const customerId = uniqueId('cli-cust');
      const created = jsonOf<{ customerId: string; apiKey: string; keyId: string; tier: string }>(
        await admin.run(['customers', 'create', '--id', customerId, '--name', 'Acme', '--tier', 'standard', '--json']));
      expect(created).to.include({ customerId, tier: 'standard' });
      expect(created.apiKey.startsWith(`${customerId}.`)).to.equal(true);

      const listed = jsonOf<{ customers: { customerId: string }[] }>(await admin.run(['customers', 'list', '--page-size', '100', '--json']));
      expect(listed.customers.map((c) => c.customerId)).to.include(customerId);
      expect(jsonOf(await admin.run(['customers', 'show', customerId, '--json']))).to.include({ customerId, name: 'Acme' });

      const updated = jsonOf(await admin.run(['customers', 'update', customerId, '--tier', 'premium', '--inactive', '--notes', 'on hold', '--json']));
      expect(updated).to.include({ tier: 'premium', isActive: false, notes: 'on hold' });
      expect(jsonOf(await admin.run(['customers', 'update', customerId, '--active', '--no-notes', '--json']))).to.include({ isActive: true, notes: null });

      const issued = jsonOf<{ keyId: string; apiKey: string }>(await admin.run(['customers', 'keys', 'create', customerId, '--json']));
      expect(issued.apiKey.startsWith(`${customerId}.`)).to.equal(true);
      const keys = jsonOf<{ apiKeys: { keyId: string; prefix: string }[] }>(await admin.run(['customers', 'keys', 'list', customerId, '--json']));
      expect(keys.apiKeys.map((k) => k.keyId)).to.have.members([created.keyId, issued.keyId]);
      expect(JSON.stringify(keys)).to.not.include(issued.apiKey);

      const revoked = jsonOf<{ keyId: string; revokedAt: string }>(await admin.run(['customers', 'keys', 'revoke', customerId, issued.keyId, '--json']));
      expect(revoked.keyId).to.equal(issued.keyId);
      expect(revoked.revokedAt).to.be.a('string');
      const after = jsonOf<{ apiKeys: { keyId: string }[] }>(await admin.run(['customers', 'keys', 'list', customerId, '--json']));
      expect(after.apiKeys.map((k) => k.keyId)).to.deep.equal([created.keyId]);
    });

    it('a POST whose answer is lost is sent again with the same Idempotency-Key: acted on once, its answer (the new key) shown', async () => {
      const throughProxy = new CliUser({ BDS_URL: proxy.url, BDS_API_KEY: app.adminKey });
      try {
        const customerId = uniqueId('cli-lost');
        const keysBefore = proxy.idempotencyKeys.length;
        proxy.loseAnswerNext({ method: 'POST' }, 1);
        const result = await throughProxy.run(['customers', 'create', '--id', customerId, '--name', 'Lost answer', '--tier', 'standard', '--json']);
        expect(result.code, result.stderr).to.equal(0);
        const created = jsonOf<{ customerId: string; apiKey: string; keyId: string }>(result);
        expect(created.customerId).to.equal(customerId);

        const sent = proxy.idempotencyKeys.slice(keysBefore);
        expect(sent, 'the POST and its retry').to.have.length(2);
        expect(sent[0]).to.be.a('string').and.equal(sent[1]);
        const keys = jsonOf<{ apiKeys: { keyId: string }[] }>(await admin.run(['customers', 'keys', 'list', customerId, '--json']));
        expect(keys.apiKeys.map((k) => k.keyId), 'one key: the customer was created once').to.deep.equal([created.keyId]);
        // Valid key, incomplete query: a 400 (the guard passed), where a key the service never issued is a 401.
        const asCustomer = await app.http.get('/v1/downloads/releases', { key: created.apiKey });
        expect(asCustomer.status, 'the key shown is the one the service issued').to.equal(400);

        const next = await throughProxy.run(['customers', 'keys', 'create', customerId, '--json']);
        expect(proxy.idempotencyKeys[proxy.idempotencyKeys.length - 1], 'each command its own key').to.not.equal(sent[0]);
        expect(next.code, next.stderr).to.equal(0);
      } finally {
        throughProxy.remove();
      }
    });
  });

  describe('scoped admin keys and the audit log', () => {
    it('admin-keys: create a key for one application, publish with it, list, revoke; the audit log shows it', async () => {
      const applicationId = uniqueId('cli-scoped');
      expect((await admin.run(['apps', 'create', applicationId, '--name', 'Scoped'])).code).to.equal(0);
      const created = await admin.run(['admin-keys', 'create', '--name', 'CI', '--scope', 'publish', '--scope', 'read', '--app', applicationId, '--expires-in-days', '30', '--json']);
      expect(created.code, created.stderr).to.equal(0);
      const key = jsonOf<{ keyId: string; apiKey: string; scopes: string[]; applicationIds: string[]; expiresAt: string }>(created);
      expect(key.scopes).to.deep.equal(['publish', 'read']);
      expect(key.applicationIds).to.deep.equal([applicationId]);
      expect(Date.parse(key.expiresAt)).to.be.greaterThan(Date.now() + 29 * 86_400_000);

      const pipeline = new CliUser({ BDS_URL: app.baseUrl, BDS_API_KEY: key.apiKey });
      try {
        const file = path.join(pipeline.home, 'ci.bin');
        fs.writeFileSync(file, randomBytes(500));
        const upload = await pipeline.run(['upload', applicationId, '1.0.0', file, '--json']);
        expect(upload.code, upload.stderr).to.equal(0);
        const outside = await pipeline.run(['apps', 'list', '--json']);
        expect(outside.code).to.equal(1);
        expect(errorOf(outside)).to.include({ status: 403 });

        const listed = jsonOf<{ apiKeys: { keyId: string; prefix: string }[] }>(await admin.run(['admin-keys', 'list', '--json']));
        expect(listed.apiKeys.map((k) => k.keyId)).to.include(key.keyId);
        expect(JSON.stringify(listed)).to.not.include(key.apiKey);

        const revoked = jsonOf<{ keyId: string; revokedAt: string }>(await admin.run(['admin-keys', 'revoke', key.keyId, '--json']));
        expect(revoked.keyId).to.equal(key.keyId);
        const refused = await pipeline.run(['versions', 'list', applicationId, '--json']);
        expect(refused.code).to.equal(1);
        expect(errorOf(refused)).to.include({ status: 401 });
      } finally {
        pipeline.remove();
      }

      const audit = jsonOf<{ entries: { action: string; actor: string; target: string | null; outcome: string }[] }>(
        await admin.run(['audit', '--app', applicationId, '--json']));
      expect(audit.entries.map((e) => e.action)).to.include.members(['upload.small', 'application.create']);
      expect(audit.entries.find((e) => e.action === 'upload.small')).to.include({ actor: key.keyId, outcome: 'succeeded' });
      const revocations = jsonOf<{ entries: { target: string | null }[] }>(await admin.run(['audit', '--action', 'adminKey.revoke', '--json']));
      expect(revocations.entries.map((e) => e.target)).to.include(key.keyId);
    });
  });

  describe('access tokens', () => {
    it('tokens: create with limits, list, show the usage, update, revoke', async () => {
      const customer = await createCustomer(app);
      const applicationId = uniqueId('cli-tokens');
      expect((await admin.run(['apps', 'create', applicationId, '--name', 'Tokens', '--customer', customer.customerId])).code).to.equal(0);
      const created = await admin.run(['tokens', 'create', customer.customerId, '--name', 'fleet', '--max-downloads', '10', '--reset-every', 'day', '--app', applicationId, '--json']);
      expect(created.code, created.stderr).to.equal(0);
      const token = jsonOf<{ tokenId: string; token: string; maxDownloads: number; applications: string[]; resetEvery: string }>(created);
      expect(token).to.include({ maxDownloads: 10, resetEvery: 'day' });
      expect(token.applications).to.deep.equal([applicationId]);
      expect(token.token).to.match(/^bdt_/);

      const listed = await admin.run(['tokens', 'list', customer.customerId, '--json']);
      expect(jsonOf<{ tokens: { tokenId: string }[] }>(listed).tokens.map((t) => t.tokenId)).to.deep.equal([token.tokenId]);
      expect(listed.stdout).to.not.include(token.token);
      const shown = jsonOf<{ usage: { downloads: number; periodEnd: string } }>(await admin.run(['tokens', 'show', customer.customerId, token.tokenId, '--json']));
      expect(shown.usage.downloads).to.equal(0);
      expect(shown.usage.periodEnd).to.be.a('string');

      const updated = await admin.run(['tokens', 'update', customer.customerId, token.tokenId, '--max-downloads', 'none', '--max-clients', '3', '--json']);
      expect(updated.code, updated.stderr).to.equal(0);
      expect(jsonOf<{ maxDownloads: number | null; maxClients: number }>(updated)).to.include({ maxDownloads: null, maxClients: 3 });
      const refused = await admin.run(['tokens', 'update', customer.customerId, token.tokenId, '--max-clients', '0']);
      expect(refused.code).to.not.equal(0);

      const revoked = jsonOf<{ tokenId: string; revokedAt: string }>(await admin.run(['tokens', 'revoke', customer.customerId, token.tokenId, '--json']));
      expect(revoked.tokenId).to.equal(token.tokenId);
      expect(revoked.revokedAt).to.be.a('string');
      expect(jsonOf<{ tokens: unknown[] }>(await admin.run(['tokens', 'list', customer.customerId, '--json'])).tokens).to.deep.equal([]);
    });
  });

  describe('small uploads, uploads, statistics and activity', () => {
    let applicationId: string;
    let customer: { customerId: string; apiKey: string };
    let content: Buffer;

    before(async () => {
      customer = await createCustomer(app);
      applicationId = uniqueId('cli-small');
      await admin.run(['apps', 'create', applicationId, '--name', 'Small', '--customer', customer.customerId]);
      content = randomBytes(64 * 1024);
    });

    it('a small file is published in one request: --json prints a start and a done event with the checksum', async () => {
      const file = path.join(admin.home, 'tool.zip');
      fs.writeFileSync(file, content);
      const result = await admin.run(['upload', applicationId, '1.0.0', file, '--notes', 'First', '--file-type', 'MAIN', '--status', 'published', '--json']);
      expect(result.code, result.stderr).to.equal(0);
      const events = eventsOf(result);
      expect(events.map((e) => e.event)).to.deep.equal(['start', 'done']);
      expect(events[0]).to.include({ method: 'small', fileSize: content.length });
      const done = events[1] as { status: string; file: { checksum: string; fileName: string; releaseNotes: string } };
      expect(done.status).to.equal('completed');
      expect(done.file).to.include({ checksum: `sha256:${sha256(content)}`, fileName: 'tool.zip', releaseNotes: 'First' });
    });

    it('platform, arch, channel and status travel with the upload: two MAIN files of one draft version side by side', async () => {
      const windows = path.join(admin.home, 'setup.exe');
      const mac = path.join(admin.home, 'app.zip');
      fs.writeFileSync(windows, randomBytes(3000));
      fs.writeFileSync(mac, randomBytes(4000));
      const first = await admin.run(['upload', applicationId, '0.9.0-beta.1', windows, '--platform', 'windows', '--arch', 'x64', '--channel', 'beta', '--status', 'draft', '--json']);
      expect(first.code, first.stderr).to.equal(0);
      expect(eventsOf(first).pop()?.file).to.include({ platform: 'windows', arch: 'x64', channel: 'beta', versionStatus: 'draft' });
      const second = await admin.run(['upload', applicationId, '0.9.0-beta.1', mac, '--platform', 'macos', '--arch', 'universal', '--channel', 'beta', '--status', 'draft', '--json']);
      expect(second.code, second.stderr).to.equal(0);
      expect(eventsOf(second).pop()?.file).to.include({ platform: 'macos', arch: 'universal', fileName: 'app.zip' });

      const clash = await admin.run(['upload', applicationId, '0.9.0-beta.1', mac, '--name', 'other.zip', '--platform', 'macos', '--arch', 'universal', '--json']);
      expect(clash.code).to.equal(1);
      expect(errorOf(clash)).to.include({ status: 409 });
    });

    it('says where an upload went: published by default, saved as a draft (and how to publish it) in an application created with --drafts', async () => {
      const file = path.join(admin.home, 'draft.zip');
      fs.writeFileSync(file, randomBytes(500));
      const publishing = uniqueId('cli-pub');
      expect(jsonOf(await admin.run(['apps', 'create', publishing, '--name', 'Publishing', '--json']))).to.include({ defaultVersionStatus: 'published' });
      const published = await admin.run(['upload', publishing, '1.0.0', file]);
      expect(published.code, published.stderr).to.equal(0);
      expect(published.stdout).to.include('published to stable: customers see it now');

      const draftApp = uniqueId('cli-draft');
      expect(jsonOf(await admin.run(['apps', 'create', draftApp, '--name', 'Drafts', '--drafts', '--json']))).to.include({ defaultVersionStatus: 'draft' });
      const drafted = await admin.run(['upload', draftApp, '1.0.0', file]);
      expect(drafted.code, drafted.stderr).to.equal(0);
      expect(drafted.stdout).to.include(`saved as draft in stable: publish with bds versions update ${draftApp} 1.0.0 --status published`);
      const named = await admin.run(['upload', draftApp, '1.1.0', file, '--status', 'published']);
      expect(named.code, named.stderr).to.equal(0);
      expect(named.stdout).to.include('published to stable: customers see it now');

      expect(jsonOf(await admin.run(['apps', 'update', draftApp, '--no-drafts', '--json']))).to.include({ defaultVersionStatus: 'published' });
      expect((await admin.run(['upload', draftApp, '1.2.0', file])).stdout).to.include('published to stable: customers see it now');
      expect(jsonOf(await admin.run(['apps', 'update', publishing, '--drafts', '--json']))).to.include({ defaultVersionStatus: 'draft' });
      expect((await admin.run(['upload', publishing, '1.1.0', file])).stdout).to.include('saved as draft in stable');
    });

    it('a small file that does not match --checksum is refused before a byte is sent (4)', async () => {
      const file = path.join(admin.home, 'other.zip');
      fs.writeFileSync(file, randomBytes(1000));
      const result = await admin.run(['upload', applicationId, '1.0.1', file, '--checksum', `sha256:${sha256(content)}`, '--json']);
      expect(result.code).to.equal(4);
      expect(errorOf(result).message).to.match(/does not match --checksum/);
      expect((await admin.run(['versions', 'list', applicationId, '--json'])).stdout).to.not.include('1.0.1');
    });

    it('download: writes the file, checks its SHA-256, and refuses to overwrite without --force', async () => {
      const downloader = new CliUser({ BDS_URL: app.baseUrl, BDS_API_KEY: customer.apiKey });
      try {
        const result = await downloader.run(['download', applicationId, '--version', '1.0.0', '--json']);
        expect(result.code, result.stderr).to.equal(0);
        const events = eventsOf(result);
        expect(events[0]).to.include({ event: 'start', fileName: 'tool.zip', resumedFrom: 0 });
        expect(events[events.length - 1]).to.include({ event: 'done', checksum: `sha256:${sha256(content)}`, version: '1.0.0' });
        expect(fs.readFileSync(path.join(downloader.home, 'tool.zip')).equals(content)).to.equal(true);

        // Refused before a URL is asked for (each URL issued counts as a download).
        const again = await downloader.run(['download', applicationId, '--version', '1.0.0', '-o', 'tool.zip', '--json']);
        expect(again.code).to.equal(2);
        expect(errorOf(again).message).to.match(/exists/);
        const forced = await downloader.run(['download', applicationId, '--version', '1.0.0', '--force', '-o', 'copy.zip', '--json']);
        expect(forced.code, forced.stderr).to.equal(0);
        expect(fs.readFileSync(path.join(downloader.home, 'copy.zip')).equals(content)).to.equal(true);
      } finally {
        downloader.remove();
      }
    });

    it('stats: --json is the statistics; the human form has the tables and a chart of downloads by day', async () => {
      const stats = await pollUntil(async () => {
        const result = await admin.run(['stats', applicationId, '--json']);
        const data = jsonOf<{
          totalDownloads: number; downloadsByVersion: Record<string, number>; downloadsByArch: Record<string, number>;
          topCustomers: { customerId: string; downloads: number }[]; downloadsByDay: { date: string; count: number }[];
        }>(result);
        // The download and the forced one: a customer's repeated downloads of a file count once.
        return data.totalDownloads === 1 ? data : undefined;
      }, 15_000, 'the download counted');
      expect(stats.downloadsByVersion['1.0.0']).to.equal(stats.totalDownloads);
      expect(stats.downloadsByArch).to.deep.equal({ any: stats.totalDownloads });
      expect(stats.topCustomers).to.deep.equal([{ customerId: customer.customerId, downloads: stats.totalDownloads }]);
      const today = new Date().toISOString().slice(0, 10);
      expect(stats.downloadsByDay[0]).to.deep.equal({ date: today, count: stats.totalDownloads });

      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const human = await admin.run(['stats', applicationId, '--from', yesterday, '--to', today]);
      expect(human.code, human.stderr).to.equal(0);
      expect(human.stdout).to.include(`${stats.totalDownloads} download`).and.include(today).and.include('┤');
      expect(human.stdout).to.match(/arch\W+downloads/).and.match(/customer\W+downloads/).and.include(customer.customerId);
    });

    it('stats adoption: --json is the adoption; the human form has the tables and a chart; --customers lists what each customer runs', async () => {
      const check = await fetch(`${app.baseUrl}/v1/updates/${applicationId}/tauri/linux/x86_64/0.9.0`, { headers: { authorization: `Bearer ${customer.apiKey}` } });
      expect([200, 204]).to.include(check.status);
      const today = new Date().toISOString().slice(0, 10);
      const adoption = await pollUntil(async () => {
        const data = jsonOf<{ days: { date: string; checks: number; activeInstalls: number; byVersion: Record<string, number> }[] }>(
          await admin.run(['stats', 'adoption', applicationId, '--json']));
        return data.days[data.days.length - 1]?.checks === 1 ? data : undefined;
      }, 15_000, 'the check counted by the workers');
      expect(adoption.days[adoption.days.length - 1]).to.deep.include({ date: today, activeInstalls: 1, byVersion: { '0.9.0': 1 } });
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const human = await admin.run(['stats', 'adoption', applicationId, '--from', yesterday, '--platform', 'linux']);
      expect(human.code, human.stderr).to.equal(0);
      expect(human.stdout).to.include('active installs').and.include('0.9.0').and.include('┤');
      const customers = await admin.run(['stats', 'adoption', applicationId, '--customers']);
      expect(customers.code, customers.stderr).to.equal(0);
      expect(customers.stdout).to.include(customer.customerId).and.include('0.9.0');
      expect((await admin.run(['stats', 'adoption', applicationId, '--platform', 'beos', '--json'])).code).to.equal(2);
    });

    it('activity: a page as JSON, and --follow prints new events as they happen, one JSON object a line', async () => {
      const page = jsonOf<{ activities: { type: string; applicationId: string }[]; pagination: { hasMore: boolean } }>(
        await admin.run(['activity', '--app', applicationId, '--type', 'upload', '--json']));
      expect(page.activities.map((a) => a.type)).to.deep.equal(['upload', 'upload', 'upload'], 'the three uploads of this application');

      const follower = admin.start(['activity', '--follow', '--app', applicationId, '--interval', '1', '--json']);
      try {
        await follower.waitForOutput(/"type":"upload"/, 15_000);
        const before = eventsOf(follower).length;
        // A share link's use: every one is counted (the customer's own download of 1.0.0 was counted already).
        const { token } = (await app.http.post('/v1/downloads/share', { applicationId, version: '1.0.0' }, { key: customer.apiKey })).body.data;
        const response = await app.http.get(`/v1/downloads/share/${token}`, { key: null });
        expect(response.status).to.equal(302);
        await pollUntil(() => (eventsOf(follower).length > before ? true : undefined), 15_000, 'the new download printed');
        const printed = eventsOf(follower);
        const latest = printed[printed.length - 1];
        expect(latest).to.include({ event: 'activity', type: 'download', applicationId, customerId: customer.customerId });
        expect(new Set(printed.map((e) => e.eventId)).size, 'no event printed twice').to.equal(printed.length);
      } finally {
        await follower.kill();
      }
    });

    it('uploads show and wait name an unknown upload with the API error', async () => {
      const shown = await admin.run(['uploads', 'show', 'upl_unknown', '--json']);
      expect(shown.code).to.equal(1);
      expect(errorOf(shown)).to.include({ status: 404 });
    });
  });

  describe('a licence to accept', () => {
    it('download without --accept-licence shows the licence and how to accept it; with it, accepts the current revision and downloads', async () => {
      const customer = await createCustomer(app);
      const { applicationId } = await createApplication(app, { customerIds: [customer.customerId], licenceText: 'LICENCE TERMS: use it kindly.' });
      const content = randomBytes(3000);
      await uploadSmallFile(app, { applicationId, version: '1.0.0', fileName: 'tool.bin', content });
      const downloader = new CliUser({ BDS_URL: app.baseUrl, BDS_API_KEY: customer.apiKey });
      try {
        const refused = await downloader.run(['download', applicationId]);
        expect(refused.code).to.equal(1);
        expect(refused.stderr).to.include('LICENCE TERMS: use it kindly.');
        expect(refused.stderr, refused.stderr).to.include('run the command again with --accept-licence');
        expect(fs.existsSync(path.join(downloader.home, 'tool.bin'))).to.equal(false);
        const refusedJson = await downloader.run(['download', applicationId, '--json']);
        expect(errorOf(refusedJson)).to.include({ code: 'LICENCE_ACCEPTANCE_REQUIRED', status: 403 });

        const accepted = await downloader.run(['download', applicationId, '--accept-licence']);
        expect(accepted.code, accepted.stderr).to.equal(0);
        expect(accepted.stderr).to.include(`Accepted the licence of ${applicationId} (revision 1)`);
        expect(fs.readFileSync(path.join(downloader.home, 'tool.bin')).equals(content)).to.equal(true);
        expect(await app.core.store.applications.getLicenceAcceptance(applicationId, customer.customerId, 1)).to.not.equal(null);
      } finally {
        downloader.remove();
      }
    });
  });

  describe('resumable downloads', () => {
    const MIB = 1024 * 1024;
    let applicationId: string;
    let downloader: CliUser;
    let content: Buffer;

    before(async () => {
      const customer = await createCustomer(app);
      applicationId = uniqueId('cli-dl');
      await admin.run(['apps', 'create', applicationId, '--name', 'Downloads', '--customer', customer.customerId]);
      content = randomBytes(6 * MIB);
      const file = path.join(admin.home, 'big.iso');
      fs.writeFileSync(file, content);
      const upload = await admin.run(['upload', applicationId, '2.0.0', file, '--status', 'published']);
      expect(upload.code, upload.stderr).to.equal(0);
      downloader = new CliUser({ BDS_URL: app.baseUrl, BDS_API_KEY: customer.apiKey });
    });
    after(() => downloader.remove());

    /** Starts a download, stalls it after `bytes` bytes, waits until they are on disk, and kills the CLI (SIGKILL). */
    async function killedAfter(bytes: number, destination: string): Promise<void> {
      const stalled = proxy.cutAfterBytes({ method: 'GET' }, bytes);
      const run = downloader.start(['download', applicationId, '--version', '2.0.0', '-o', destination, '--json']);
      try {
        await stalled;
        await pollUntil(() => (fs.existsSync(`${destination}.part`) && fs.statSync(`${destination}.part`).size === bytes ? true : undefined), 10_000, 'the first bytes written');
      } finally {
        await run.kill();
        proxy.clearRule();
      }
    }

    it('a download killed mid-way resumes with a Range request for the rest and checks the SHA-256', async () => {
      const destination = path.join(downloader.home, 'resumed.iso');
      await killedAfter(2 * MIB, destination);
      expect(fs.existsSync(destination)).to.equal(false);

      const result = await downloader.run(['download', applicationId, '--version', '2.0.0', '-o', destination, '--json']);
      expect(result.code, result.stderr).to.equal(0);
      expect(proxy.ranges[proxy.ranges.length - 1]).to.equal(`bytes=${2 * MIB}-`);
      const events = eventsOf(result);
      expect(events[0]).to.include({ event: 'start', resumedFrom: 2 * MIB, fileSize: content.length });
      const progress = events.filter((e) => e.event === 'progress');
      expect(progress.length).to.be.greaterThan(0);
      expect(progress.every((e) => (e.bytesDone as number) >= 2 * MIB), 'progress counts the bytes already there').to.equal(true);
      expect(events[events.length - 1]).to.include({ event: 'done', resumedFrom: 2 * MIB, checksum: `sha256:${sha256(content)}` });
      expect(fs.readFileSync(destination).equals(content)).to.equal(true);
      expect(fs.existsSync(`${destination}.part`)).to.equal(false);
    });

    it('a partial file whose bytes differ fails the SHA-256 check (4) and is deleted; the next run starts over', async () => {
      const destination = path.join(downloader.home, 'corrupt.iso');
      await killedAfter(1 * MIB, destination);
      fs.writeFileSync(`${destination}.part`, randomBytes(1 * MIB));

      const failed = await downloader.run(['download', applicationId, '--version', '2.0.0', '-o', destination, '--json']);
      expect(failed.code).to.equal(4);
      expect(errorOf(failed)).to.include({ expected: `sha256:${sha256(content)}` });
      expect(fs.existsSync(destination)).to.equal(false);
      expect(fs.existsSync(`${destination}.part`)).to.equal(false);

      const again = await downloader.run(['download', applicationId, '--version', '2.0.0', '-o', destination, '--json']);
      expect(again.code, again.stderr).to.equal(0);
      expect(eventsOf(again)[0]).to.include({ resumedFrom: 0 });
      expect(fs.readFileSync(destination).equals(content)).to.equal(true);
    });

    it('a connection lost before the answer is retried within the run', async () => {
      proxy.failNext({ method: 'GET' }, 1);
      const destination = path.join(downloader.home, 'retried.iso');
      const result = await downloader.run(['download', applicationId, '--version', '2.0.0', '-o', destination, '--json']);
      expect(result.code, result.stderr).to.equal(0);
      expect(eventsOf(result).filter((e) => e.event === 'retry')).to.have.length(1);
      expect(fs.readFileSync(destination).equals(content)).to.equal(true);
    });
  });

  describe('multipart uploads', () => {
    const MIB = 1024 * 1024;
    /** The service's part size for files up to 78 GiB. */
    const PART = 8 * MIB;
    let applicationId: string;

    before(async () => {
      applicationId = uniqueId('cli-mp');
      expect((await admin.run(['apps', 'create', applicationId, '--name', 'Multipart'])).code).to.equal(0);
    });

    /** `parts` parts, the last one short; from 3 parts on it is above the small upload's limit. */
    function bigFile(name: string, parts: number): { file: string; content: Buffer } {
      const content = randomBytes(PART * (parts - 1) + 12_345);
      const file = path.join(admin.home, name);
      fs.writeFileSync(file, content);
      return { file, content };
    }

    it('a file above the small limit goes in parts, with progress events in --json, and waits for verification', async () => {
      const { file, content } = bigFile('three-parts.bin', 3);
      const result = await admin.run(['upload', applicationId, '1.0.0', file, '--notes', 'Parts', '--json']);
      expect(result.code, result.stderr).to.equal(0);
      const events = eventsOf(result);
      const kinds = events.map((e) => e.event);
      expect(kinds[0]).to.equal('start');
      expect(kinds.slice(-2)).to.deep.equal(['verifying', 'done']);
      expect(events[0]).to.include({ method: 'multipart', fileSize: content.length, partSize: PART, partCount: 3, parallel: 4, resumed: false, skippedParts: 0 });

      const progress = events.filter((e) => e.event === 'progress') as { bytesDone: number; bytesTotal: number; partsDone: number; rate: number }[];
      expect(progress.length).to.be.at.least(3);
      expect(progress.every((e) => e.bytesTotal === content.length && typeof e.rate === 'number')).to.equal(true);
      expect(progress[progress.length - 1]).to.include({ bytesDone: content.length, partsDone: 3 });

      const done = events[events.length - 1] as { status: string; uploadId: string; skippedParts: number; sentParts: number; file: { checksum: string; releaseNotes: string } };
      expect(done).to.include({ status: 'completed', skippedParts: 0, sentParts: 3 });
      expect(done.file).to.include({ checksum: `sha256:${sha256(content)}`, releaseNotes: 'Parts' });

      const shown = jsonOf(await admin.run(['uploads', 'show', done.uploadId, '--json']));
      expect(shown).to.include({ uploadId: done.uploadId, status: 'completed' });
      const waited = await admin.run(['uploads', 'wait', done.uploadId, '--json']);
      expect(waited.code).to.equal(0);
      expect(jsonOf(waited)).to.include({ status: 'completed' });
    });

    it('killed (SIGKILL) mid-upload, the same command resumes: it reports the parts it skipped and sends only the others', async () => {
      const { file, content } = bigFile('five-parts.bin', 5);
      const args = ['upload', applicationId, '2.0.0', file, '--parallel', '1', '--json'];
      const stalled = proxy.holdAfter({ method: 'PUT' }, 2);
      const first = admin.start(args);
      try {
        await stalled;
        await pollUntil(() => (eventsOf(first).some((e) => e.event === 'progress' && e.partsDone === 2) ? true : undefined), 10_000, 'two parts reported');
      } finally {
        await first.kill();
        proxy.clearRule();
      }
      expect(eventsOf(first)[0]).to.include({ event: 'start', partCount: 5, resumed: false });
      const uploadId = eventsOf(first)[0].uploadId as string;

      const storedBefore = proxy.storedPuts;
      const second = await admin.run(args);
      expect(second.code, second.stderr).to.equal(0);
      const events = eventsOf(second);
      expect(events[0]).to.include({ event: 'start', uploadId, resumed: true, skippedParts: 2, partCount: 5 });
      expect(proxy.storedPuts - storedBefore, 'parts sent by the second run').to.equal(3);
      const firstProgress = events.find((e) => e.event === 'progress') as { bytesDone: number };
      expect(firstProgress.bytesDone).to.be.at.least(2 * PART);
      const done = events[events.length - 1];
      expect(done).to.include({ event: 'done', status: 'completed', uploadId, skippedParts: 2, sentParts: 3 });
      expect((done.file as { checksum: string }).checksum).to.equal(`sha256:${sha256(content)}`);

      // Run again, the same bytes are found published under the name the service now refuses.
      const human = await admin.run(args.filter((arg) => arg !== '--json'));
      expect(human.code, human.stderr).to.equal(0);
      expect(human.stdout).to.match(/^Already published: five-parts\.bin/);
    });

    it('Ctrl-C stops the upload (130) and the same command resumes it', async () => {
      const { file, content } = bigFile('interrupted.bin', 3);
      const args = ['upload', applicationId, '3.0.0', file, '--parallel', '1', '--json'];
      const stalled = proxy.holdAfter({ method: 'PUT' }, 1);
      const first = admin.start(args);
      try {
        await stalled;
        first.signal('SIGINT');
        const exit = await first.exitWithin(10_000);
        expect(exit.code).to.equal(130);
        expect(first.stderr).to.match(/run the same command again/);
      } finally {
        await first.kill();
        proxy.clearRule();
      }
      const second = await admin.run(args);
      expect(second.code, second.stderr).to.equal(0);
      const events = eventsOf(second);
      expect(events[0]).to.include({ resumed: true, skippedParts: 1 });
      expect(events[events.length - 1]).to.include({ status: 'completed', sentParts: 2 });
      expect(((events[events.length - 1].file) as { checksum: string }).checksum).to.equal(`sha256:${sha256(content)}`);
    });

    /** Runs `args` until the proxy holds its part `after + 1`, then kills it (SIGKILL); returns the upload's id. */
    async function killedUpload(args: string[], after: number): Promise<string> {
      const stalled = proxy.holdAfter({ method: 'PUT' }, after);
      const run = admin.start(args);
      try {
        await stalled;
        return (await run.waitForOutput(/"uploadId":"([^"]+)"/, 10_000))[1];
      } finally {
        await run.kill();
        proxy.clearRule();
      }
    }

    it('an upload aborted with uploads abort, or whose file changed, is started afresh by the next run', async () => {
      const { file, content } = bigFile('abandoned.bin', 3);
      const args = ['upload', applicationId, '6.0.0', file, '--parallel', '1', '--json'];
      const aborted = await killedUpload(args, 1);
      const abort = await admin.run(['uploads', 'abort', aborted, '--json']);
      expect(abort.code, abort.stderr).to.equal(0);
      expect(jsonOf(abort)).to.include({ uploadId: aborted, status: 'aborted' });

      const changedFrom = await killedUpload(args, 1);
      expect(changedFrom).to.not.equal(aborted);
      const changed = randomBytes(content.length);
      fs.writeFileSync(file, changed);
      fs.utimesSync(file, new Date(), new Date(Date.now() + 5_000));

      const result = await admin.run(args);
      expect(result.code, result.stderr).to.equal(0);
      const events = eventsOf(result);
      expect(events[0]).to.include({ resumed: false, skippedParts: 0 });
      expect(events[0].uploadId).to.not.equal(changedFrom);
      expect(((events[events.length - 1].file) as { checksum: string }).checksum).to.equal(`sha256:${sha256(changed)}`);
      expect(jsonOf(await admin.run(['uploads', 'show', changedFrom, '--json'])), 'the upload of the earlier bytes').to.include({ status: 'aborted' });
    });

    it('platform, arch and the release fields go with the multipart upload and its resume record: another platform or other notes start afresh', async () => {
      const { file, content } = bigFile('tool-linux.bin', 3);
      const release = ['upload', applicationId, '7.0.0-rc.1', file, '--parallel', '1', '--json', '--channel', 'beta', '--status', 'draft', '--platform', 'linux'];
      const x64 = await killedUpload([...release, '--arch', 'x64'], 1);
      const arm = await killedUpload([...release, '--arch', 'arm64'], 1);
      expect(arm, 'another arch is another upload').to.not.equal(x64);
      expect(jsonOf(await admin.run(['uploads', 'show', x64, '--json'])), 'the x64 upload, replaced').to.include({ status: 'aborted', platform: 'linux', arch: 'x64' });
      const withNotes = [...release, '--arch', 'arm64', '--notes', 'Arm build'];
      const noted = await killedUpload(withNotes, 1);
      expect(noted, 'other release notes are another upload').to.not.equal(arm);
      expect(jsonOf(await admin.run(['uploads', 'show', noted, '--json']))).to.include({ status: 'issued', platform: 'linux', arch: 'arm64', channel: 'beta', versionStatus: 'draft' });

      const result = await admin.run(withNotes);
      expect(result.code, result.stderr).to.equal(0);
      const events = eventsOf(result);
      expect(events[0]).to.include({ uploadId: noted, resumed: true, skippedParts: 1 });
      const done = events[events.length - 1] as { status: string; file: Record<string, unknown> };
      expect(done.status).to.equal('completed');
      expect(done.file).to.include({ platform: 'linux', arch: 'arm64', channel: 'beta', versionStatus: 'draft', releaseNotes: 'Arm build', checksum: `sha256:${sha256(content)}` });
    });

    it('a part whose connection is lost is retried with backoff within the run', async () => {
      const { file, content } = bigFile('retried.bin', 3);
      proxy.failNext({ method: 'PUT' }, 1);
      const result = await admin.run(['upload', applicationId, '4.0.0', file, '--json']);
      expect(result.code, result.stderr).to.equal(0);
      const events = eventsOf(result);
      const retries = events.filter((e) => e.event === 'retry');
      expect(retries).to.have.length(1);
      expect(retries[0]).to.include({ attempt: 1 });
      expect(events[events.length - 1]).to.include({ status: 'completed', sentParts: 3 });
      expect(((events[events.length - 1].file) as { checksum: string }).checksum).to.equal(`sha256:${sha256(content)}`);
    });

    it('a failed verification ends the command with 4 and the reason; the name is free again', async () => {
      const { file } = bigFile('mismatch.bin', 3);
      const wrong = `sha256:${'0'.repeat(64)}`;
      const failed = await admin.run(['upload', applicationId, '5.0.0', file, '--checksum', wrong, '--json']);
      expect(failed.code).to.equal(4);
      const done = eventsOf(failed).pop() as { status: string; failureReason: string };
      expect(done.status).to.equal('failed');
      expect(done.failureReason).to.match(/checksum/i);
      expect(errorOf(failed)).to.include({ status: 'failed' });
      expect(errorOf(failed).message).to.include(done.failureReason);

      const retried = await admin.run(['upload', applicationId, '5.0.0', file, '--json']);
      expect(retried.code, retried.stderr).to.equal(0);
      expect(eventsOf(retried)[0]).to.include({ resumed: false });
    });
  });

  describe('the CLI contract', () => {
    it('--json goes anywhere, and with it every failure, usage errors included, is one JSON object on stderr', async () => {
      for (const args of [['--json', 'apps', 'list'], ['apps', '--json', 'list'], ['apps', 'list', '--json']]) {
        const listed = await admin.run(args);
        expect(listed.code, `${args.join(' ')}: ${listed.stderr}`).to.equal(0);
        expect(jsonOf(listed)).to.have.property('applications');
      }
      for (const args of [['apps', 'list', '--bogus', '--json'], ['--json', 'apps', 'frobnicate'], ['--json', 'apps'], ['--json', 'apps', 'create', 'x']]) {
        const refused = await admin.run(args);
        expect(refused.code, args.join(' ')).to.equal(2);
        expect(refused.stdout).to.equal('');
        expect(refused.stderr.trim().split('\n'), `one line: ${refused.stderr}`).to.have.length(1);
        expect(errorOf(refused)).to.include({ exitCode: 2, code: 'USAGE_ERROR' });
      }
    });

    it('platform, arch, status, file type and event types are checked before anything is sent (2)', async () => {
      const file = path.join(admin.home, 'never-sent.bin');
      fs.writeFileSync(file, randomBytes(100));
      const cases = [
        ['upload', 'no-such-app', '1.0.0', file, '--platform', 'plan9'],
        ['upload', 'no-such-app', '1.0.0', file, '--arch', 'sparc'],
        ['upload', 'no-such-app', '1.0.0', file, '--status', 'yanked'],
        ['upload', 'no-such-app', '1.0.0', file, '--file-type', 'main'],
        ['versions', 'update', 'no-such-app', '1.0.0', '--status', 'gone'],
        ['download', 'no-such-app', '--platform', 'any'],
        ['webhooks', 'create', '--url', 'https://hooks.example.com/x', '--event', 'everything'],
      ];
      for (const args of cases) {
        const refused = await admin.run([...args, '--json']);
        expect(refused.code, args.join(' ')).to.equal(2);
        expect(errorOf(refused).message).to.match(/invalid|must be one of/);
      }
      // Nothing was sent: the service would have answered 404 for the unknown application.
      const human = await admin.run(['upload', 'no-such-app', '1.0.0', file, '--platform', 'plan9']);
      expect(human.stderr).to.match(/Allowed choices are windows, macos, linux, any/);
    });

    it('a validation error lists each problem once', async () => {
      const invalid = await admin.run(['apps', 'create', 'Not Valid', '--name', 'x']);
      expect(invalid.code).to.equal(1);
      const problems = invalid.stderr.split('\n').filter((line) => line.includes('applicationId'));
      expect(problems, invalid.stderr).to.have.length(1);
    });

    it('login takes a URL ending in /v1 as the service\'s, and refuses one that is not the service (2), saving nothing', async () => {
      const user = new CliUser();
      try {
        const elsewhere = await user.run(['login', '--url', `${app.baseUrl}/not-the-service`, '--json'], { input: app.adminKey });
        expect(elsewhere.code).to.equal(2);
        expect(errorOf(elsewhere).message).to.match(/is not a binary distribution service/);
        expect(fs.existsSync(path.join(user.home, 'config', 'bds', 'config.json'))).to.equal(false);

        const login = await user.run(['login', '--url', `${app.baseUrl}/v1/`, '--json'], { input: app.adminKey });
        expect(login.code, login.stderr).to.equal(0);
        expect(jsonOf(login)).to.include({ url: app.baseUrl });
        expect((await user.run(['apps', 'list', '--json'])).code).to.equal(0);
      } finally {
        user.remove();
      }
    });

    it('Ctrl-C while waiting for an upload ends with 130 and says how to follow it', async () => {
      const applicationId = uniqueId('cli-wait');
      await admin.run(['apps', 'create', applicationId, '--name', 'Wait']);
      const opened = await app.http.post('/v1/management/uploads/multipart', { applicationId, version: '1.0.0', fileName: 'big.bin', fileSize: 20 * 1024 * 1024 });
      expect(opened.status, opened.raw.toString()).to.equal(201);
      const uploadId = opened.body.data.uploadId as string;
      const waiting = admin.start(['uploads', 'wait', uploadId]);
      try {
        // Never completed: it stays issued, and the wait goes on until interrupted.
        await pollUntil(() => (waiting.stderr.includes(`${uploadId}: issued`) ? true : undefined), 15_000, 'the wait under way');
        waiting.signal('SIGINT');
        expect((await waiting.exitWithin(10_000)).code).to.equal(130);
        expect(waiting.stderr).to.include(`bds uploads wait ${uploadId}`);
      } finally {
        await waiting.kill();
      }
    });

    it('an identical re-upload (same name and bytes) is reported as already published; other bytes are a conflict', async () => {
      const applicationId = uniqueId('cli-again');
      await admin.run(['apps', 'create', applicationId, '--name', 'Again']);
      const file = path.join(admin.home, 'again.zip');
      fs.writeFileSync(file, randomBytes(5000));
      expect((await admin.run(['upload', applicationId, '1.0.0', file, '--json'])).code).to.equal(0);
      const again = await admin.run(['upload', applicationId, '1.0.0', file, '--json']);
      expect(again.code, again.stderr).to.equal(0);
      expect(eventsOf(again).pop()).to.deep.include({ event: 'done', status: 'completed', alreadyPublished: true });
      expect((await admin.run(['upload', applicationId, '1.0.0', file])).stdout).to.match(/^Already published: again\.zip/);
      fs.writeFileSync(file, randomBytes(5000));
      const other = await admin.run(['upload', applicationId, '1.0.0', file, '--json']);
      expect(other.code).to.equal(1);
      expect(errorOf(other)).to.include({ status: 409 });
    });
  });

  describe('covering the product', () => {
    let applicationId: string;
    let customer: { customerId: string; apiKey: string };
    let downloader: CliUser;
    const builds = { windows: randomBytes(3000), linux: randomBytes(3100), macos: randomBytes(3200), draft: randomBytes(3300) };
    /** This machine's build among those uploaded (the CLI maps process.platform to the service's names). */
    const hostBuild = () => ({ win32: 'windows', darwin: 'macos', linux: 'linux' } as Record<string, keyof typeof builds>)[process.platform];

    before(async () => {
      customer = await createCustomer(app);
      downloader = new CliUser({ BDS_URL: app.baseUrl, BDS_API_KEY: customer.apiKey });
      applicationId = uniqueId('cli-product');
      await admin.run(['apps', 'create', applicationId, '--name', 'Product']);
      const targets = { windows: ['setup.exe', 'windows', 'x64'], linux: ['app.AppImage', 'linux', 'x64'], macos: ['app.zip', 'macos', 'universal'] } as const;
      for (const [build, [name, platform, arch]] of Object.entries(targets)) {
        const file = path.join(admin.home, name);
        fs.writeFileSync(file, builds[build as keyof typeof builds]);
        const uploaded = await admin.run(['upload', applicationId, '1.0.0', file, '--platform', platform, '--arch', arch, '--status', 'published']);
        expect(uploaded.code, uploaded.stderr).to.equal(0);
      }
      const draft = path.join(admin.home, 'draft.bin');
      fs.writeFileSync(draft, builds.draft);
      expect((await admin.run(['upload', applicationId, '2.0.0', draft, '--status', 'draft'])).code).to.equal(0);
    });
    after(() => downloader?.remove());

    it('customers grant and revoke one customer\'s access; until granted, the download says access must be granted', async () => {
      const before = await downloader.run(['download', applicationId, '-o', 'before.bin']);
      expect(before.code).to.equal(1);
      expect(before.stderr).to.match(/not found: a customer sees only the applications it was granted/);

      const other = await createCustomer(app);
      expect((await admin.run(['customers', 'grant', other.customerId, applicationId])).code).to.equal(0);
      const granted = jsonOf<{ customerIds: string[] }>(await admin.run(['customers', 'grant', customer.customerId, applicationId, '--json']));
      expect(granted.customerIds).to.deep.equal([other.customerId, customer.customerId]);

      const releases = jsonOf<{ releases: { version: string; files: { fileName: string }[] }[] }>(await downloader.run(['releases', applicationId, '--json']));
      expect(releases.releases.map((release) => release.version), 'the draft is not offered').to.deep.equal(['1.0.0']);
      expect(releases.releases[0].files.map((file) => file.fileName)).to.have.members(['setup.exe', 'app.AppImage', 'app.zip']);

      const revoked = jsonOf<{ customerIds: string[] }>(await admin.run(['customers', 'revoke', other.customerId, applicationId, '--json']));
      expect(revoked.customerIds).to.deep.equal([customer.customerId]);
    });

    it('download picks this machine\'s build by default, another with --platform and --arch', async () => {
      const host = await downloader.run(['download', applicationId, '-o', 'host.bin', '--json']);
      expect(host.code, host.stderr).to.equal(0);
      expect(fs.readFileSync(path.join(downloader.home, 'host.bin')).equals(builds[hostBuild()])).to.equal(true);
      const windows = await downloader.run(['download', applicationId, '--platform', 'windows', '--arch', 'x64', '-o', 'win.bin']);
      expect(windows.code, windows.stderr).to.equal(0);
      expect(fs.readFileSync(path.join(downloader.home, 'win.bin')).equals(builds.windows)).to.equal(true);
    });

    it('with an admin key, download fetches any file, a draft included, without counting a download', async () => {
      const before = (await app.http.get(`/v1/activity?applicationId=${applicationId}&type=download&limit=100`)).body.data.activities.length;
      const destination = path.join(admin.home, 'tested-draft.bin');
      const draft = await admin.run(['download', applicationId, '--version', '2.0.0', '-o', destination, '--json']);
      expect(draft.code, draft.stderr).to.equal(0);
      expect(fs.readFileSync(destination).equals(builds.draft)).to.equal(true);
      const latest = path.join(admin.home, 'tested-latest.bin');
      expect((await admin.run(['download', applicationId, '-o', latest])).code).to.equal(0);
      expect(fs.readFileSync(latest).equals(builds[hostBuild()])).to.equal(true);
      const after = (await app.http.get(`/v1/activity?applicationId=${applicationId}&type=download&limit=100`)).body.data.activities.length;
      expect(after).to.equal(before);
    });

    it('share create and revoke with a customer key', async () => {
      const created = jsonOf<{ shareUrl: string; token: string; maxDownloads: number }>(
        await downloader.run(['share', 'create', applicationId, '--version', '1.0.0', '--platform', 'linux', '--arch', 'x64', '--max-downloads', '3', '--json']));
      expect(created.maxDownloads).to.equal(3);
      expect(created.shareUrl).to.include(created.token);
      const revoked = await downloader.run(['share', 'revoke', created.token, '--json']);
      expect(revoked.code, revoked.stderr).to.equal(0);
      expect(jsonOf(revoked)).to.include({ message: 'share link revoked' });
      expect((await downloader.run(['share', 'revoke', created.token, '--json'])).code).to.equal(1);
    });

    it('stats show downloads by platform and take --channel', async () => {
      const stats = await pollUntil(async () => {
        const data = jsonOf<{ totalDownloads: number; downloadsByPlatform: Record<string, number> }>(await admin.run(['stats', applicationId, '--channel', 'stable', '--json']));
        return data.totalDownloads >= 2 ? data : undefined;
      }, 15_000, 'the customer\'s downloads counted');
      expect(stats.downloadsByPlatform.windows).to.equal(1);
      const beta = jsonOf<{ totalDownloads: number }>(await admin.run(['stats', applicationId, '--channel', 'beta', '--json']));
      expect(beta.totalDownloads).to.equal(0);
      const human = await admin.run(['stats', applicationId]);
      expect(human.stdout).to.match(/platform/).and.match(/windows/);
    });

    it('applications take an update-signing key from a file, and --no-update-signing-key removes it', async () => {
      const pub = path.join(admin.home, 'update.pub');
      // A minisign public key file: "Ed", an 8-byte key id and a 32-byte Ed25519 key, in base64.
      const keyLine = Buffer.concat([Buffer.from('Ed'), randomBytes(8), randomBytes(32)]).toString('base64');
      fs.writeFileSync(pub, `untrusted comment: minisign public key\n${keyLine}\n`);
      const set = await admin.run(['apps', 'update', applicationId, '--update-signing-key', `@${pub}`, '--json']);
      expect(set.code, set.stderr).to.equal(0);
      expect(jsonOf<{ updateSigningKey: string | null }>(set).updateSigningKey).to.be.a('string');
      const removed = jsonOf<{ updateSigningKey: string | null }>(await admin.run(['apps', 'update', applicationId, '--no-update-signing-key', '--json']));
      expect(removed.updateSigningKey).to.equal(null);
      expect((await admin.run(['apps', 'update', applicationId, '--json'])).code, 'nothing to change').to.equal(2);

      const sparkleKey = randomBytes(32).toString('base64');
      expect(jsonOf<{ sparklePublicKey: string | null }>(await admin.run(['apps', 'update', applicationId, '--sparkle-public-key', sparkleKey, '--json'])).sparklePublicKey).to.equal(sparkleKey);
      expect(jsonOf<{ sparklePublicKey: string | null }>(await admin.run(['apps', 'update', applicationId, '--no-sparkle-public-key', '--json'])).sparklePublicKey).to.equal(null);
    });

    it('webhooks: create (secret shown once), list, update, rotate the secret, deliveries, redeliver, delete', async () => {
      const created = jsonOf<{ webhookId: string; secret: string; events: string[] }>(await admin.run([
        'webhooks', 'create', '--url', 'https://hooks.example.com/bds', '--event', 'version.published', '--event', 'upload.failed', '--inactive', '--json',
      ]));
      expect(created.events).to.deep.equal(['version.published', 'upload.failed']);
      expect(created.secret).to.be.a('string');
      const listed = jsonOf<{ webhooks: { webhookId: string }[] }>(await admin.run(['webhooks', 'list', '--page-size', '100', '--json']));
      expect(listed.webhooks.map((w) => w.webhookId)).to.include(created.webhookId);
      expect(JSON.stringify(listed)).to.not.include(created.secret);
      const updated = jsonOf(await admin.run(['webhooks', 'update', created.webhookId, '--event', 'upload.completed', '--description', 'CI', '--json']));
      expect(updated).to.deep.include({ events: ['upload.completed'], description: 'CI', isActive: false });
      const rotated = jsonOf<{ secret: string; previousSecretExpiresAt: string }>(await admin.run(['webhooks', 'rotate-secret', created.webhookId, '--json']));
      expect(rotated.secret).to.be.a('string').and.not.equal(created.secret);
      expect(jsonOf(await admin.run(['webhooks', 'deliveries', created.webhookId, '--json']))).to.deep.include({ deliveries: [] });
      const redeliver = await admin.run(['webhooks', 'redeliver', created.webhookId, 'dlv_unknown', '--json']);
      expect(redeliver.code).to.equal(1);
      expect(errorOf(redeliver)).to.include({ status: 404 });
      expect((await admin.run(['webhooks', 'delete', created.webhookId, '--json'])).code).to.equal(0);
      expect((await admin.run(['webhooks', 'show', created.webhookId, '--json'])).code).to.equal(1);
    });
  });

  describe('package repositories', () => {
    it('repos: what each channel serves with the setup lines, key rotation, and a key import refused for a public key', async () => {
      const applicationId = uniqueId('cli-repos');
      expect((await admin.run(['apps', 'create', applicationId, '--name', 'Repos'])).code).to.equal(0);
      const deb = await buildDeb(admin.home, { name: 'cli-tool', version: '1.0.0', arch: 'amd64' });
      const uploaded = await admin.run(['upload', applicationId, '1.0.0', deb, '--platform', 'linux', '--arch', 'x64', '--status', 'published']);
      expect(uploaded.code, uploaded.stderr).to.equal(0);
      const listed = jsonOf<{ keys: unknown[]; channels: { channel: string; packages: { packageName: string; packageArch: string; format: string }[] }[] }>(
        await admin.run(['repos', applicationId, '--json']));
      expect(listed.keys).to.deep.equal([]);
      expect(listed.channels[0]).to.deep.include({ channel: 'stable' });
      expect(listed.channels[0].packages.map((pkg) => [pkg.format, pkg.packageName, pkg.packageArch])).to.deep.equal([['deb', 'cli-tool', 'amd64']]);
      const text = await admin.run(['repos', applicationId]);
      expect(text.code, text.stderr).to.equal(0);
      expect(text.stdout).to.include(`gpg --dearmor --yes -o /etc/apt/keyrings/${applicationId}.gpg`).and.to.include(`/v1/repos/${applicationId}/apt stable main`)
        .and.to.include(`/v1/repos/${applicationId}/rpm/stable/${applicationId}.repo`);
      const rotated = jsonOf<{ keys: { retiresAt: string | null }[] }>(await admin.run(['repos', 'rotate-key', applicationId, '--json']));
      expect(rotated.keys).to.have.length(1);
      const again = jsonOf<{ keys: { retiresAt: string | null }[] }>(await admin.run(['repos', 'rotate-key', applicationId, '--json']));
      expect(again.keys.map((key) => key.retiresAt === null)).to.deep.equal([true, false]);
      const publicKeyFile = path.join(admin.home, 'public.asc');
      fs.writeFileSync(publicKeyFile, '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nAAAA\n-----END PGP PUBLIC KEY BLOCK-----\n');
      const refused = await admin.run(['repos', 'import-key', applicationId, publicKeyFile]);
      expect(refused.code).not.to.equal(0);
      expect(refused.stderr).to.match(/privateKey/);
    });
  });
});
