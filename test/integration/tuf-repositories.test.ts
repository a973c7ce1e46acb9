import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Metadata, MetadataKind } from '@tufjs/models';
import { TUF_SNAPSHOT_EXPIRY_SECONDS, TUF_TARGETS_EXPIRY_SECONDS, TUF_TIMESTAMP_EXPIRY_DEFAULT_SECONDS } from '../../shared/policy';
import type { Store } from '../../shared/store/store';
import { generateTufKey, type TufKeyPair } from '../../shared/tuf/keys';
import { versionOf } from '../../shared/tuf/repository';
import { draftRoot, rotateRoot, signRoot } from '../../shared/tuf/root';
import { TufRepositories, TufRootRefused } from '../../shared/tuf/tuf-repositories';
import { describeStoreContract } from '../contract/store/harness';
import { application, at, file } from '../support/records';
import { rejectionOf } from '../support/rejection';

const EXPIRIES = { targets: TUF_TARGETS_EXPIRY_SECONDS, snapshot: TUF_SNAPSHOT_EXPIRY_SECONDS, timestamp: TUF_TIMESTAMP_EXPIRY_DEFAULT_SECONDS };
const SHA256 = 'ab'.repeat(32);
const SHA512 = Buffer.alloc(64, 7);

/** Applications' TUF repositories on each store: sealed online keys, the vendor's roots, the signed published files. */
describeStoreContract('TUF repositories of published files', (subject) => {
  let store: Store;
  let sealingKey: Buffer;
  let repositories: TufRepositories;
  let rootKeys: TufKeyPair[];

  beforeEach(async () => {
    store = subject.store;
    sealingKey = randomBytes(32);
    repositories = new TufRepositories(store, sealingKey, ['stable', 'beta'], EXPIRIES);
    rootKeys = [generateTufKey(), generateTufKey()];
    await store.applications.createApplication(application('app_1'));
    await store.versions.upsertVersion('app_1', '1.0.0', { initialChannel: 'stable', initialStatus: 'published' }, at(1));
    await store.versions.insertFile(file('f_main', { fileName: 'App.dmg', fileSize: 1234, fileType: 'MAIN', platform: 'macos', arch: 'arm64', checksum: `sha256:${SHA256}`, sha512: SHA512.toString('base64') }));
    await store.versions.insertFile(file('f_old', { fileName: 'old.zip', sha512: null }));
    await store.versions.upsertVersion('app_1', '2.0.0', { initialChannel: 'beta', initialStatus: 'draft' }, at(1));
    await store.versions.insertFile(file('f_draft', { version: '2.0.0', fileName: 'App.dmg', sha512: SHA512.toString('base64') }));
  });

  async function firstRoot() {
    const online = await repositories.onlinePublicKeys('app_1');
    return signRoot(draftRoot({ version: 1, rootKeys, threshold: 2, online, expiresInSeconds: 86_400 * 365, now: new Date() }), rootKeys);
  }

  it('makes the online keys once and keeps their private halves sealed', async () => {
    const made = await repositories.ensure('app_1');
    expect(await repositories.ensure('app_1')).to.deep.equal(made);
    for (const key of Object.values(made.keys)) {
      expect(key.sealedPrivateKey).to.match(/^gcm1\./);
      expect(key.publicKey).to.match(/^[0-9a-f]{64}$/);
    }
    expect(await repositories.resign('app_1'), 'nothing is signed before the vendor uploads a root').to.equal(null);
    // Under another sealing key the keys do not open, so nothing can be signed with them.
    const root = await firstRoot();
    const elsewhere = new TufRepositories(store, randomBytes(32), ['stable', 'beta'], EXPIRIES);
    const error = await rejectionOf(elsewhere.uploadRoot('app_1', root.toJSON()));
    expect(String(error)).to.match(/unable to authenticate|unsupported state/i);
  });

  it('refuses a root it cannot trust, keeping nothing', async () => {
    const online = await repositories.onlinePublicKeys('app_1');
    const halfSigned = signRoot(draftRoot({ version: 1, rootKeys, threshold: 2, online, expiresInSeconds: 86_400, now: new Date() }), [rootKeys[0]]);
    const foreign = signRoot(draftRoot({ version: 1, rootKeys, threshold: 2, online: { ...online, snapshot: generateTufKey() }, expiresInSeconds: 86_400, now: new Date() }), rootKeys);
    for (const candidate of [halfSigned.toJSON(), foreign.toJSON(), { signed: {} }, 'root']) {
      const error = await rejectionOf(repositories.uploadRoot('app_1', candidate));
      expect(error).to.be.instanceOf(TufRootRefused);
    }
    expect(await store.tuf.latestTufRoot('app_1')).to.equal(null);
    expect((await store.tuf.findTufRepository('app_1'))!.metadata).to.equal(null);
  });

  it('signs the published files once the root is kept, each role verifying under the keys the root names', async () => {
    const root = await firstRoot();
    await repositories.uploadRoot('app_1', root.toJSON());
    const { metadata } = (await store.tuf.findTufRepository('app_1'))!;
    const trusted = Metadata.fromJSON(MetadataKind.Root, JSON.parse((await store.tuf.findTufRoot('app_1', 1))!.document));
    const timestamp = Metadata.fromJSON(MetadataKind.Timestamp, JSON.parse(metadata!.timestamp));
    const targets = Metadata.fromJSON(MetadataKind.Targets, JSON.parse(metadata!.targets));
    trusted.verifyDelegate('timestamp', timestamp);
    trusted.verifyDelegate('snapshot', Metadata.fromJSON(MetadataKind.Snapshot, JSON.parse(metadata!.snapshot)));
    trusted.verifyDelegate('targets', targets);
    const stable = Metadata.fromJSON(MetadataKind.Targets, JSON.parse(metadata!.channels.stable));
    targets.verifyDelegate('stable', stable);
    expect(Object.keys(stable.signed.targets), 'the draft and the file without a SHA-512 are not listed').to.deep.equal(['1.0.0/App.dmg']);
    const target = stable.signed.targets['1.0.0/App.dmg'];
    expect(target.length).to.equal(1234);
    expect(target.hashes).to.deep.equal({ sha256: SHA256, sha512: SHA512.toString('hex') });
    expect(target.custom).to.deep.equal({ platform: 'macos', arch: 'arm64', channel: 'stable', fileType: 'MAIN' });
    expect(JSON.parse(metadata!.channels.beta).signed.targets).to.deep.equal({});
  });

  it('signs again when a version is published, and only then', async () => {
    await repositories.uploadRoot('app_1', (await firstRoot()).toJSON());
    const first = (await store.tuf.findTufRepository('app_1'))!.metadata!;
    expect(await repositories.resign('app_1'), 'nothing changed').to.deep.equal(first);
    await store.versions.transitionVersion('app_1', '2.0.0', 'published', at(2));
    const [a, b, c] = await Promise.all([repositories.resign('app_1'), repositories.resign('app_1'), repositories.resign('app_1')]);
    const stored = (await store.tuf.findTufRepository('app_1'))!.metadata!;
    expect(versionOf(stored.channels.beta)).to.equal(2);
    expect(versionOf(stored.channels.stable), 'the stable role is unchanged').to.equal(1);
    expect(versionOf(stored.timestamp), 'racing signers keep one new timestamp').to.equal(2);
    for (const result of [a, b, c]) expect(result).to.deep.equal(stored);
    expect(Object.keys(JSON.parse(stored.channels.beta).signed.targets)).to.deep.equal(['2.0.0/App.dmg']);
  });

  it('keeps a rotated root signed by the old and new keys, and refuses its version twice', async () => {
    const root = await firstRoot();
    await repositories.uploadRoot('app_1', root.toJSON());
    const newKeys = [generateTufKey()];
    const rotated = rotateRoot({ previous: root, previousKeys: rootKeys, newKeys, threshold: 1, expiresInSeconds: 86_400, now: new Date() });
    expect((await repositories.uploadRoot('app_1', rotated.toJSON())).version).to.equal(2);
    const again = await rejectionOf(repositories.uploadRoot('app_1', rotated.toJSON()));
    expect(again).to.be.instanceOf(TufRootRefused);
    const notRotated = signRoot(draftRoot({ version: 3, rootKeys, threshold: 2, online: await repositories.onlinePublicKeys('app_1'), expiresInSeconds: 86_400, now: new Date() }), rootKeys);
    expect(String(await rejectionOf(repositories.uploadRoot('app_1', notRotated.toJSON())))).to.match(/signatures do not verify/);
    expect((await store.tuf.latestTufRoot('app_1'))!.version).to.equal(2);
  });
});
