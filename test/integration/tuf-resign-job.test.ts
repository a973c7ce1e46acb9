import { expect } from 'chai';
import { createLogger } from '../../shared/logger';
import { TUF_SNAPSHOT_EXPIRY_SECONDS, TUF_TARGETS_EXPIRY_SECONDS, TUF_TIMESTAMP_EXPIRY_DEFAULT_SECONDS } from '../../shared/policy';
import { webhookSecretKey } from '../../shared/runtime/local-secrets';
import { generateTufKey } from '../../shared/tuf/keys';
import { versionOf } from '../../shared/tuf/repository';
import { draftRoot, signRoot } from '../../shared/tuf/root';
import { TufRepositories } from '../../shared/tuf/tuf-repositories';
import { launchWorkers } from '../../workers/worker-process';
import { createApplication, uploadSmallFile } from '../support/factories';
import { pollUntil } from '../support/poll';
import { startTestApp, type TestApp } from '../support/test-app';

/** The workers sign an application's timestamp.json again before it expires. */
describe('Re-signing of TUF metadata by the workers', function () {
  this.timeout(60_000);
  let app: TestApp;

  before(async () => {
    app = await startTestApp({ workers: false });
  });
  after(async () => app?.close());

  it('signs a timestamp near its expiry again at the next version, leaving the roles with time left', async () => {
    const { applicationId } = await createApplication(app);
    await uploadSmallFile(app, { applicationId, version: '1.0.0' });
    // Signed 20 hours ago with the default one-day lifetime: less than a third of it is left.
    const signedAt = new Date(Date.now() - 20 * 3600 * 1000);
    const expiries = { targets: TUF_TARGETS_EXPIRY_SECONDS, snapshot: TUF_SNAPSHOT_EXPIRY_SECONDS, timestamp: TUF_TIMESTAMP_EXPIRY_DEFAULT_SECONDS };
    const sealingKey = webhookSecretKey(app.config.webhooks.secretKeyHex, app.config.dataDir);
    const earlier = new TufRepositories(app.core.store, sealingKey, app.config.channels, expiries, () => signedAt);
    const rootKeys = [generateTufKey()];
    const online = await earlier.onlinePublicKeys(applicationId);
    await earlier.uploadRoot(applicationId, signRoot(draftRoot({ version: 1, rootKeys, threshold: 1, online, expiresInSeconds: 86_400 * 365, now: signedAt }), rootKeys).toJSON());
    const before = (await app.core.store.tuf.findTufRepository(applicationId))!.metadata!;
    expect(Object.keys(JSON.parse(before.channels[app.config.channels[0]]).signed.targets)).to.have.length(1);

    const workers = await launchWorkers(app.config, createLogger('silent', 'test'), app.core, app.config.redisUrl as string);
    try {
      const after = await pollUntil(async () => {
        const metadata = (await app.core.store.tuf.findTufRepository(applicationId))!.metadata!;
        return versionOf(metadata.timestamp) > versionOf(before.timestamp) ? metadata : undefined;
      }, 30_000, 'the timestamp to be signed again');
      expect(versionOf(after.timestamp)).to.equal(2);
      const expires = Date.parse(JSON.parse(after.timestamp).signed.expires as string);
      expect(expires - Date.now()).to.be.greaterThan((app.config.tufTimestampExpirySeconds - 120) * 1000);
      expect(after.snapshot, 'the snapshot has time left').to.equal(before.snapshot);
      expect(after.targets).to.equal(before.targets);
    } finally {
      await workers.close();
    }
  });
});
