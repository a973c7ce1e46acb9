import { expect } from 'chai';
import type { TufOnlineDocuments, TufRepositoryRecord, TufRootRecord } from '../../../shared/store/models';
import type { Store } from '../../../shared/store/store';
import { at } from '../../support/records';
import { describeStoreContract } from './harness';

function repository(applicationId: string, keyId = 'k'): TufRepositoryRecord {
  const key = (role: string) => ({ keyId: `${keyId}-${role}`, publicKey: `${role}-public`, sealedPrivateKey: `gcm1.${role}.sealed` });
  return { applicationId, keys: { targets: key('targets'), snapshot: key('snapshot'), timestamp: key('timestamp') }, metadata: null, createdAt: at(0), updatedAt: at(0) };
}

function documents(version: number): TufOnlineDocuments {
  return {
    targets: `{"signed":{"version":${version}}}`,
    channels: { stable: `{"stable":${version}}`, beta: `{"beta":${version}}` },
    snapshot: `{"snapshot":${version}}`,
    timestamp: `{"timestamp":${version}}`,
  };
}

function root(applicationId: string, version: number, document = `{"root":${version}}`): TufRootRecord {
  return { applicationId, version, document, createdAt: at(version) };
}

/** The TufStore port: applications' TUF repositories. */
describeStoreContract('TUF repositories', (subject) => {
  let store: Store;

  beforeEach(() => {
    store = subject.store;
  });

  it('keeps a repository once: a second creation answers the first, its keys unchanged', async () => {
    expect(await store.tuf.findTufRepository('app_1')).to.equal(null);
    expect(await store.tuf.createTufRepository(repository('app_1'))).to.deep.equal(repository('app_1'));
    expect(await store.tuf.createTufRepository(repository('app_1', 'other'))).to.deep.equal(repository('app_1'));
    expect(await store.tuf.findTufRepository('app_1')).to.deep.equal(repository('app_1'));
    expect(await store.tuf.findTufRepository('app_2')).to.equal(null);
  });

  it('replaces the online metadata only over the timestamp it expects', async () => {
    expect(await store.tuf.replaceTufMetadata('app_1', null, documents(1), at(1)), 'no repository').to.equal(false);
    await store.tuf.createTufRepository(repository('app_1'));
    await store.tuf.createTufRepository(repository('app_2'));
    expect(await store.tuf.replaceTufMetadata('app_1', '{"timestamp":0}', documents(1), at(1)), 'none signed yet').to.equal(false);
    expect(await store.tuf.replaceTufMetadata('app_1', null, documents(1), at(1))).to.equal(true);
    expect(await store.tuf.replaceTufMetadata('app_1', null, documents(9), at(2)), 'a racing first signer').to.equal(false);
    expect(await store.tuf.replaceTufMetadata('app_1', documents(1).timestamp, documents(2), at(3))).to.equal(true);
    expect(await store.tuf.replaceTufMetadata('app_1', documents(1).timestamp, documents(9), at(4)), 'a stale signer').to.equal(false);
    expect(await store.tuf.findTufRepository('app_1')).to.deep.equal({ ...repository('app_1'), metadata: documents(2), updatedAt: at(3) });
    expect(await store.tuf.findTufRepository('app_2'), 'another application untouched').to.deep.equal(repository('app_2'));
  });

  it('keeps roots in order, each version once, never replaced', async () => {
    expect(await store.tuf.latestTufRoot('app_1')).to.equal(null);
    expect(await store.tuf.addTufRoot(root('app_1', 2)), 'not the first').to.equal(false);
    expect(await store.tuf.addTufRoot(root('app_1', 1))).to.equal(true);
    expect(await store.tuf.addTufRoot(root('app_1', 1, '{"other":1}')), 'version 1 again').to.equal(false);
    expect(await store.tuf.addTufRoot(root('app_1', 3)), 'a gap').to.equal(false);
    expect(await store.tuf.addTufRoot(root('app_1', 2))).to.equal(true);
    expect(await store.tuf.addTufRoot(root('app_2', 1))).to.equal(true);
    expect(await store.tuf.findTufRoot('app_1', 1)).to.deep.equal(root('app_1', 1));
    expect(await store.tuf.findTufRoot('app_1', 3)).to.equal(null);
    expect(await store.tuf.latestTufRoot('app_1')).to.deep.equal(root('app_1', 2));
    expect(await store.tuf.latestTufRoot('app_2')).to.deep.equal(root('app_2', 1));
  });

  it('lists the applications with a repository by id, a page after another', async () => {
    for (const id of ['app_c', 'app_a', 'app_b']) await store.tuf.createTufRepository(repository(id));
    expect(await store.tuf.listTufRepositoryIds(2)).to.deep.equal(['app_a', 'app_b']);
    expect(await store.tuf.listTufRepositoryIds(2, 'app_b')).to.deep.equal(['app_c']);
    expect(await store.tuf.listTufRepositoryIds(2, 'app_c')).to.deep.equal([]);
    for (const limit of [0, 1.5]) {
      const refused = await store.tuf.listTufRepositoryIds(limit).then(() => null, (error: unknown) => error);
      expect(refused, String(limit)).to.be.instanceOf(RangeError);
    }
  });

  it('of racing uploads of one root version, exactly one is kept', async () => {
    await store.tuf.addTufRoot(root('app_1', 1));
    const outcomes = await Promise.all([1, 2, 3, 4].map((n) => store.tuf.addTufRoot(root('app_1', 2, `{"racer":${n}}`))));
    expect(outcomes.filter(Boolean)).to.have.length(1);
    const kept = await store.tuf.findTufRoot('app_1', 2);
    expect(kept!.document).to.equal(`{"racer":${outcomes.indexOf(true) + 1}}`);
  });
});
