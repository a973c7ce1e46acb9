import { expect } from 'chai';
import fc from 'fast-check';
import type { ReleaseStatus } from '../../../shared/releases/lifecycle';
import type { Platform } from '../../../shared/releases/platforms';
import { newestFirst } from '../../../shared/releases/version-order';
import type { FileRecord, PackageInfo, Version } from '../../../shared/store/models';
import type { Store, VersionTransition } from '../../../shared/store/store';
import { application as applicationRecord, at, file, version as versionRecord } from '../../support/records';
import { rejectionOf } from '../../support/rejection';
import { expectDuplicate, versionNames } from '../../support/store-expectations';
import { describeStoreContract } from './harness';

/** The VersionStore port: versions, their lifecycle and listing, files, their publication and deletion. */
describeStoreContract('versions and files', (subject) => {
  let store: Store;

  beforeEach(() => {
    store = subject.store;
  });

  describe('versions', () => {
    it('upsertVersion creates a version with the patch, and the defaults for what it leaves out', async () => {
      const created = await store.versions.upsertVersion('app_1', '1.0.0', { releaseNotes: 'First' }, at(1));
      const expected = versionRecord('app_1', '1.0.0', { releaseNotes: 'First', publishedAt: at(1), createdAt: at(1), updatedAt: at(1) });
      expect(created).to.deep.equal(expected);
      expect(await store.versions.getVersion('app_1', '1.0.0')).to.deep.equal(expected);
      expect(await store.versions.getVersion('app_2', '1.0.0')).to.equal(null);
    });

    it('upsertVersion on an existing version applies only the set fields and keeps createdAt', async () => {
      await store.versions.upsertVersion('app_1', '1.0.0', { releaseNotes: 'First', requiredTier: 'gold' }, at(1));
      const updated = await store.versions.upsertVersion('app_1', '1.0.0', { releaseNotes: undefined, requiredTier: null }, at(2));
      expect(updated).to.deep.equal(versionRecord('app_1', '1.0.0', { releaseNotes: 'First', publishedAt: at(1), createdAt: at(1), updatedAt: at(2) }));
    });

    it('updateVersion patches an existing version and never creates one', async () => {
      expect(await store.versions.updateVersion('app_1', '1.0.0', { releaseNotes: 'x' }, at(1))).to.equal(null);
      expect(await store.versions.getVersion('app_1', '1.0.0')).to.equal(null);
      await store.versions.upsertVersion('app_1', '1.0.0', { releaseNotes: 'First' }, at(2));
      const updated = await store.versions.updateVersion('app_1', '1.0.0', { requiredTier: 'silver' }, at(3));
      expect(updated).to.deep.equal(versionRecord('app_1', '1.0.0', {
        releaseNotes: 'First', requiredTier: 'silver', publishedAt: at(2), createdAt: at(2), updatedAt: at(3),
      }));
      expect(await store.versions.getVersion('app_1', '1.0.0')).to.deep.equal(updated);
    });

    it('creates a version with the channel, rollout and initial status a call sets; an existing one keeps its status', async () => {
      const draft = await store.versions.upsertVersion('app_1', '2.0.0-beta.1', { channel: 'beta', rolloutPercentage: 25, initialStatus: 'draft' }, at(1));
      const expected = versionRecord('app_1', '2.0.0-beta.1', {
        channel: 'beta', rolloutPercentage: 25, status: 'draft', publishedAt: null, createdAt: at(1), updatedAt: at(1),
      });
      expect(draft).to.deep.equal(expected);
      const again = await store.versions.upsertVersion('app_1', '2.0.0-beta.1', { channel: 'rc', initialStatus: 'published' }, at(2));
      expect(again).to.deep.equal({ ...expected, channel: 'rc', updatedAt: at(2) });
      const updated = await store.versions.updateVersion('app_1', '2.0.0-beta.1', { rolloutPercentage: 100, channel: 'stable' }, at(3));
      expect(updated).to.deep.equal({ ...expected, channel: 'stable', rolloutPercentage: 100, updatedAt: at(3) });
      expect(await store.versions.getVersion('app_1', '2.0.0-beta.1')).to.deep.equal(updated);
    });

    it('puts a version that names no channel in the default channel it was opened with', async () => {
      const other = await subject.make({ defaultChannel: 'main' });
      try {
        expect(await other.store.versions.upsertVersion('app_1', '1.0.0', {}, at(1))).to.include({ channel: 'main' });
        expect(await other.store.versions.upsertVersion('app_1', '1.1.0', { channel: 'beta' }, at(1))).to.include({ channel: 'beta' });
        expect(versionNames(await other.store.versions.listVersions('app_1', { channels: ['main'] }))).to.deep.equal(['1.0.0']);
      } finally {
        await other.dispose();
      }
    });

    it("stores a version's bundle version, minimum system version and critical flag: none by default, set on creation or by patch, kept by other changes", async () => {
      const plain = await store.versions.upsertVersion('app_1', '1.0.0', {}, at(1));
      expect(plain).to.include({ bundleVersion: null, minimumSystemVersion: null, critical: false });
      const created = await store.versions.upsertVersion('app_1', '2.0.0', { bundleVersion: '200', minimumSystemVersion: '11.0', critical: true }, at(1));
      expect(created).to.include({ bundleVersion: '200', minimumSystemVersion: '11.0', critical: true });
      expect(await store.versions.upsertVersion('app_1', '2.0.0', { releaseNotes: 'Notes' }, at(2))).to.include({ bundleVersion: '200', critical: true });
      expect(await store.versions.updateVersion('app_1', '1.0.0', { bundleVersion: '100', critical: true }, at(3))).to.include({ bundleVersion: '100', minimumSystemVersion: null, critical: true });
      const moved = await store.versions.transitionVersion('app_1', '1.0.0', 'yanked', at(4), { critical: false, minimumSystemVersion: '10.15' });
      expect((moved as Extract<VersionTransition, { outcome: 'applied' }>).version).to.include({ bundleVersion: '100', minimumSystemVersion: '10.15', critical: false, status: 'yanked' });
      expect(await store.versions.updateVersion('app_1', '2.0.0', { bundleVersion: null, minimumSystemVersion: null }, at(5))).to.include({ bundleVersion: null, minimumSystemVersion: null, critical: true });
      const listed = await store.versions.listVersions('app_1');
      expect(listed.map((v) => [v.version, v.bundleVersion, v.minimumSystemVersion, v.critical])).to.deep.equal([['2.0.0', null, null, true], ['1.0.0', '100', '10.15', false]]);
      const { files: _files, ...first } = listed[1];
      expect(await store.versions.getVersion('app_1', '1.0.0')).to.deep.equal(first);
    });

    it('refuses a rollout percentage that is not a whole number from 1 to 100, and changes nothing', async () => {
      const stored = await store.versions.upsertVersion('app_1', '1.0.0', { rolloutPercentage: 50 }, at(1));
      for (const bad of [0, 101, 1.5, -5, Number.NaN]) {
        expect(await rejectionOf(store.versions.upsertVersion('app_1', '2.0.0', { rolloutPercentage: bad }, at(2)))).to.be.instanceOf(RangeError);
        expect(await rejectionOf(store.versions.updateVersion('app_1', '1.0.0', { rolloutPercentage: bad }, at(2)))).to.be.instanceOf(RangeError);
        expect(await rejectionOf(store.versions.transitionVersion('app_1', '1.0.0', 'yanked', at(2), { rolloutPercentage: bad }))).to.be.instanceOf(RangeError);
      }
      expect(await store.versions.listVersions('app_1')).to.deep.equal([{ ...stored, files: [] }]);
      expect(await store.versions.updateVersion('app_1', '1.0.0', { rolloutPercentage: 1 }, at(3))).to.include({ rolloutPercentage: 1 });
    });

    describe('lifecycle', () => {
      /** A version that reached `status` by the lifecycle's own steps, last changed at(2). */
      async function versionIn(status: ReleaseStatus, name: string): Promise<Version> {
        await store.versions.upsertVersion('app_1', name, { initialStatus: status === 'draft' ? 'draft' : 'published' }, at(1));
        const result = await store.versions.transitionVersion('app_1', name, status, at(2));
        return (result as Extract<VersionTransition, { outcome: 'applied' }>).version;
      }

      /** Publishing, yanking and un-yanking; naming the current status is allowed and changes only the patch's fields. */
      const allowed: Record<ReleaseStatus, ReleaseStatus[]> = {
        draft: ['draft', 'published'],
        published: ['published', 'yanked'],
        yanked: ['yanked', 'published'],
      };

      it('keeps the reason a version was yanked with, and clears it when a patch says null', async () => {
        await versionIn('published', '1.0.0');
        const yanked = await store.versions.transitionVersion('app_1', '1.0.0', 'yanked', at(3), { yankReason: 'Crashes on start' });
        expect(yanked).to.deep.include({ outcome: 'applied', from: 'published' });
        expect(await store.versions.getVersion('app_1', '1.0.0')).to.include({ status: 'yanked', yankReason: 'Crashes on start' });
        await store.versions.transitionVersion('app_1', '1.0.0', 'published', at(4), { yankReason: null });
        expect(await store.versions.getVersion('app_1', '1.0.0')).to.include({ status: 'published', yankReason: null });
        expect(await store.versions.upsertVersion('app_1', '2.0.0', {}, at(5))).to.include({ yankReason: null });
      });

      it('keeps the version a yanked one is rolled back to, in the listings too, and clears it when a patch says null', async () => {
        await versionIn('published', '1.0.0');
        await versionIn('published', '1.1.0');
        await store.versions.transitionVersion('app_1', '1.1.0', 'yanked', at(3), { yankReason: 'Crashes', rollbackTo: '1.0.0' });
        expect(await store.versions.getVersion('app_1', '1.1.0')).to.include({ status: 'yanked', rollbackTo: '1.0.0' });
        const listed = await store.versions.listVersions('app_1');
        expect(listed.map((v) => [v.version, v.rollbackTo])).to.deep.equal([['1.1.0', '1.0.0'], ['1.0.0', null]]);
        await store.versions.transitionVersion('app_1', '1.1.0', 'published', at(4), { yankReason: null, rollbackTo: null });
        expect(await store.versions.getVersion('app_1', '1.1.0')).to.include({ status: 'published', rollbackTo: null });
        expect(await store.versions.upsertVersion('app_1', '2.0.0', {}, at(5))).to.include({ rollbackTo: null });
      });

      it('records the key each kind of update signature verified under, in the listings too, leaving updatedAt', async () => {
        const created = await versionIn('published', '1.0.0');
        expect(created.signedUnder).to.deep.equal({ minisign: null, sparkle: null });
        const recorded = await store.versions.recordSigningKey('app_1', '1.0.0', 'minisign', 'A1B2C3D4E5F60708');
        expect(recorded).to.deep.include({ signedUnder: { minisign: 'A1B2C3D4E5F60708', sparkle: null }, updatedAt: created.updatedAt });
        await store.versions.recordSigningKey('app_1', '1.0.0', 'sparkle', 'c3BhcmtsZQ==');
        const listed = await store.versions.listVersions('app_1');
        expect(listed[0].signedUnder).to.deep.equal({ minisign: 'A1B2C3D4E5F60708', sparkle: 'c3BhcmtsZQ==' });
        expect(await store.versions.recordSigningKey('app_1', '9.9.9', 'minisign', 'A1B2C3D4E5F60708')).to.equal(null);
      });

      it('applies the allowed transitions and refuses every other one, changing nothing', async () => {
        const statuses: ReleaseStatus[] = ['draft', 'published', 'yanked'];
        for (const from of statuses) {
          for (const to of statuses) {
            const name = `${from}-to-${to}`;
            const before = await versionIn(from, name);
            const result = await store.versions.transitionVersion('app_1', name, to, at(5), { releaseNotes: 'changed' });
            if (allowed[from].includes(to)) {
              expect(result, name).to.deep.equal({
                outcome: 'applied',
                from,
                version: {
                  ...before, status: to, releaseNotes: 'changed', publishedAt: before.publishedAt ?? (to === 'published' ? at(5) : null), updatedAt: at(5),
                },
              });
            } else {
              expect(result, name).to.deep.equal({ outcome: 'invalid-transition', from, to });
            }
            expect(await store.versions.getVersion('app_1', name), name).to.deep.equal(result.outcome === 'applied' ? result.version : before);
          }
        }
      });

      it('sets publishedAt when a version is first published and keeps it through yank and un-yank', async () => {
        expect(await store.versions.upsertVersion('app_1', '1.0.0', {}, at(1))).to.include({ status: 'published' });
        expect((await store.versions.getVersion('app_1', '1.0.0'))?.publishedAt).to.deep.equal(at(1));
        expect((await store.versions.upsertVersion('app_1', '2.0.0', { initialStatus: 'draft' }, at(1))).publishedAt).to.equal(null);
        expect((await store.versions.transitionVersion('app_1', '2.0.0', 'draft', at(2), { releaseNotes: 'still a draft' }))).to.deep.include({ outcome: 'applied', from: 'draft' });
        expect((await store.versions.getVersion('app_1', '2.0.0'))?.publishedAt).to.equal(null);
        const steps: [ReleaseStatus, Date][] = [['published', at(5)], ['yanked', at(6)], ['published', at(7)], ['yanked', at(8)]];
        for (const [to, when] of steps) {
          await store.versions.transitionVersion('app_1', '2.0.0', to, when);
          expect(await store.versions.getVersion('app_1', '2.0.0')).to.deep.include({ status: to, publishedAt: at(5), updatedAt: when });
        }
      });

      it('applies a patch with its transition in one write, channel and rollout included', async () => {
        await store.versions.upsertVersion('app_1', '1.0.0', { releaseNotes: 'First' }, at(1));
        const result = await store.versions.transitionVersion('app_1', '1.0.0', 'yanked', at(3), {
          releaseNotes: 'Broken installer', requiredTier: 'gold', channel: 'beta', rolloutPercentage: 10,
        });
        expect(result).to.deep.equal({
          outcome: 'applied',
          from: 'published',
          version: versionRecord('app_1', '1.0.0', {
            releaseNotes: 'Broken installer', requiredTier: 'gold', channel: 'beta', rolloutPercentage: 10, status: 'yanked',
            publishedAt: at(1), createdAt: at(1), updatedAt: at(3),
          }),
        });
      });

      it('answers not-found for a version or application it does not have', async () => {
        await store.versions.upsertVersion('app_1', '1.0.0', {}, at(1));
        expect(await store.versions.transitionVersion('app_1', '2.0.0', 'yanked', at(2))).to.deep.equal({ outcome: 'not-found' });
        expect(await store.versions.transitionVersion('app_2', '1.0.0', 'yanked', at(2))).to.deep.equal({ outcome: 'not-found' });
        expect(await store.versions.getVersion('app_2', '1.0.0')).to.equal(null);
      });

      it('lets one of concurrent transitions from a status apply; the others find it done', async () => {
        await store.versions.upsertVersion('app_1', '2.0.0', { initialStatus: 'draft' }, at(0));
        const publishes = await Promise.all(Array.from({ length: 8 }, (_, i) => store.versions.transitionVersion('app_1', '2.0.0', 'published', at(i + 1))));
        const applied = publishes.map((result) => {
          expect(result.outcome).to.equal('applied');
          return result as Extract<VersionTransition, { outcome: 'applied' }>;
        });
        const publishers = applied.filter((result) => result.from === 'draft');
        expect(publishers).to.have.length(1);
        const publishedAt = publishers[0].version.publishedAt as Date;
        expect(applied.map((result) => result.version.publishedAt)).to.deep.equal(applied.map(() => publishedAt));
        expect((await store.versions.getVersion('app_1', '2.0.0'))?.publishedAt).to.deep.equal(publishedAt);

        const yanks = await Promise.all(Array.from({ length: 6 }, (_, i) => store.versions.transitionVersion('app_1', '2.0.0', 'yanked', at(20 + i))));
        expect(yanks.filter((result) => result.outcome === 'applied' && result.from === 'published')).to.have.length(1);
        expect(yanks.every((result) => result.outcome === 'applied')).to.equal(true);
        expect(await store.versions.getVersion('app_1', '2.0.0')).to.deep.include({ status: 'yanked', publishedAt });
      });
    });

    describe('listing', () => {
      it('lists versions newest first by the version order, each with its files oldest first', async () => {
        const v1 = await store.versions.upsertVersion('app_1', '1.0.0', {}, at(1));
        const v2 = await store.versions.upsertVersion('app_1', '2.0.0', {}, at(3));
        const v15 = await store.versions.upsertVersion('app_1', '1.5.0', {}, at(3));
        const v110 = await store.versions.upsertVersion('app_1', '1.10.0', {}, at(0));
        await store.versions.upsertVersion('app_2', '9.0.0', {}, at(5));
        const fb = await store.versions.insertFile(file('f_b', { createdAt: at(2) }));
        const fa = await store.versions.insertFile(file('f_a', { createdAt: at(2) }));
        const fc = await store.versions.insertFile(file('f_c', { createdAt: at(1), status: 'failed' }));
        const fd = await store.versions.insertFile(file('f_d', { version: '2.0.0', fileType: 'MAIN' }));
        await store.versions.insertFile(file('f_e', { applicationId: 'app_2', version: '9.0.0' }));
        expect(await store.versions.listVersions('app_1')).to.deep.equal([
          { ...v2, files: [fd] },
          { ...v110, files: [] },
          { ...v15, files: [] },
          { ...v1, files: [fc, fa, fb] },
        ]);
        expect(await store.versions.listVersions('app_unknown')).to.deep.equal([]);
      });

      /** SemVer with prereleases and build metadata, numeric versions that rank among them, and free-form strings below all. */
      const MIXED_VERSIONS = [
        '1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1',
        '1.0.0', 'v1.0.0', '1.0.0+build.5', 'V2.0.0-rc.1', '2.0.0', '1.9.0', '1.10.0', '10.0.0',
        '1.0', '1.2', '1.2.3', '1.2.3.4', '1.2.4-alpha', '10', '2024.01.15', '2024.1.15', '2024.1.2',
        'build-812', 'nightly', '1.2-beta', 'latest-dev', '1.2.3.4.5', 'Build-9',
        // Numbers past 2^53, with and without a prerelease or build metadata.
        '99999999999999999999999.0.0-rc.1', '99999999999999999999999.0.0', '99999999999999999999999.0.0+b.7',
        '1.0.0-rc.99999999999999999999', '1.0.0-rc.100000000000000000000', '1.99999999999999999999.0-beta',
      ];

      it('lists versions of every kind inserted in any order in the order of the version comparator', async () => {
        for (const seed of [7, 42, 2026]) {
          const applicationId = `app_${seed}`;
          // A seeded order and creation times with ties, so creation time and then the string must decide some places.
          const [order] = fc.sample(fc.shuffledSubarray(MIXED_VERSIONS, { minLength: MIXED_VERSIONS.length }), { seed, numRuns: 1 });
          const [minutes] = fc.sample(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: order.length, maxLength: order.length }), { seed, numRuns: 1 });
          const stored = [];
          for (const [i, name] of order.entries()) stored.push(await store.versions.upsertVersion(applicationId, name, {}, at(minutes[i])));
          expect(versionNames(await store.versions.listVersions(applicationId)), `seed ${seed}`).to.deep.equal(versionNames([...stored].sort(newestFirst)));
        }
      });

      it('filters by channels and by statuses, alone and together, in the same order', async () => {
        await store.versions.upsertVersion('app_1', '1.0.0', {}, at(1));
        await store.versions.upsertVersion('app_1', '1.1.0', { channel: 'beta' }, at(2));
        await store.versions.upsertVersion('app_1', '1.2.0', { channel: 'beta', initialStatus: 'draft' }, at(3));
        await store.versions.upsertVersion('app_1', '1.3.0', { channel: 'rc' }, at(4));
        await store.versions.transitionVersion('app_1', '1.3.0', 'yanked', at(5));
        await store.versions.upsertVersion('app_1', '0.9.0', {}, at(0));
        await store.versions.transitionVersion('app_1', '0.9.0', 'yanked', at(5));
        await store.versions.upsertVersion('app_2', '1.1.0', { channel: 'beta' }, at(2));
        const beta = await store.versions.insertFile(file('f_beta', { version: '1.1.0', fileType: 'MAIN' }));
        const draft = await store.versions.insertFile(file('f_draft', { version: '1.2.0', fileType: 'MAIN' }));
        const list = async (filter: Parameters<Store['versions']['listVersions']>[1]) => versionNames(await store.versions.listVersions('app_1', filter));
        expect(await list({})).to.deep.equal(['1.3.0', '1.2.0', '1.1.0', '1.0.0', '0.9.0']);
        expect(await list({ statuses: ['published'] })).to.deep.equal(['1.1.0', '1.0.0']);
        expect(await list({ statuses: ['yanked', 'draft'] })).to.deep.equal(['1.3.0', '1.2.0', '0.9.0']);
        expect(await list({ channels: ['stable', 'rc'] })).to.deep.equal(['1.3.0', '1.0.0', '0.9.0']);
        expect(await list({ channels: ['beta'], statuses: ['published', 'draft'] })).to.deep.equal(['1.2.0', '1.1.0']);
        expect(await list({ channels: ['alpha'] })).to.deep.equal([]);
        expect(await list({ channels: [] })).to.deep.equal([]);
        expect(await list({ statuses: [] })).to.deep.equal([]);
        const betas = await store.versions.listVersions('app_1', { channels: ['beta'] });
        expect(betas.map((v) => v.files)).to.deep.equal([[draft], [beta]]);
      });
    });
  });

  describe('files', () => {
    it('stores a file and returns it unchanged', async () => {
      const pending = file('f_1', { status: 'pending', checksum: null, fileType: 'MAIN', platform: 'macos', arch: 'universal', sha512: 'c2hhNTEy' });
      expect(await store.versions.insertFile(pending)).to.deep.equal(pending);
      expect(await store.versions.getFile('f_1')).to.deep.equal(pending);
      expect(await store.versions.getFile('f_unknown')).to.equal(null);
    });

    it('stores a file given without platform, arch or SHA-512 for any platform and arch, without a SHA-512', async () => {
      const { platform: _platform, arch: _arch, sha512: _sha512, sha1: _sha1, ...given } = file('f_1', { fileType: 'MAIN' });
      const stored = await store.versions.insertFile(given);
      expect(stored).to.deep.equal(file('f_1', { fileType: 'MAIN' }));
      expect(stored).to.include({ platform: 'any', arch: 'any', sha512: null, sha1: null });
      expect(await store.versions.getFile('f_1')).to.deep.equal(stored);
    });

    it('refuses a duplicate fileId', async () => {
      await store.versions.insertFile(file('f_1'));
      await expectDuplicate(store.versions.insertFile(file('f_1', { fileName: 'other.bin', version: '2.0.0' })), 'fileId');
    });

    it('refuses a second live file of the same name in one version, pending or available', async () => {
      await store.versions.insertFile(file('f_1', { fileName: 'setup.exe', status: 'pending', checksum: null }));
      await expectDuplicate(store.versions.insertFile(file('f_2', { fileName: 'setup.exe' })), 'fileName');
      await store.versions.insertFile(file('f_3', { fileName: 'setup.exe', version: '2.0.0' }));
      await store.versions.insertFile(file('f_4', { fileName: 'setup.exe', applicationId: 'app_2' }));
      await expectDuplicate(store.versions.insertFile(file('f_5', { fileName: 'setup.exe', version: '2.0.0', status: 'pending' })), 'fileName');
      await expectDuplicate(store.versions.insertFile(file('f_6', { fileName: 'setup.exe', platform: 'windows', arch: 'x64' })), 'fileName');
      expect(await store.versions.getFile('f_2')).to.equal(null);
    });

    it('refuses a second live MAIN file in one version', async () => {
      await store.versions.insertFile(file('f_1', { fileName: 'app.exe', fileType: 'MAIN' }));
      await expectDuplicate(store.versions.insertFile(file('f_2', { fileName: 'app-v2.exe', fileType: 'MAIN', status: 'pending' })), 'mainFile');
      await store.versions.insertFile(file('f_3', { fileName: 'readme.pdf', fileType: 'DOCUMENTATION' }));
      await store.versions.insertFile(file('f_4', { fileName: 'app-v2.exe', fileType: 'MAIN', version: '2.0.0' }));
    });

    it('holds one live MAIN file per platform and arch in a version', async () => {
      const targets: [Platform, FileRecord['arch']][] = [['windows', 'x64'], ['windows', 'arm64'], ['macos', 'universal'], ['macos', 'arm64'], ['linux', 'x64'], ['any', 'any'], ['linux', 'any']];
      for (const [platform, arch] of targets) {
        // The windows/x64 slot is held by an upload under way (pending), which may still fail.
        const underWay = platform === 'windows' && arch === 'x64' ? { status: 'pending' as const, checksum: null } : {};
        await store.versions.insertFile(file(`f_${platform}_${arch}`, { fileName: `app-${platform}-${arch}`, fileType: 'MAIN', platform, arch, ...underWay }));
      }
      await expectDuplicate(store.versions.insertFile(file('f_again', { fileName: 'app-again.exe', fileType: 'MAIN', platform: 'windows', arch: 'x64' })), 'mainFile');
      await expectDuplicate(store.versions.insertFile(file('f_any', { fileName: 'app-any.zip', fileType: 'MAIN', status: 'pending' })), 'mainFile');
      // The same target in another version, or a file of another type, is another slot.
      await store.versions.insertFile(file('f_v2', { fileName: 'app.exe', fileType: 'MAIN', platform: 'windows', arch: 'x64', version: '2.0.0' }));
      await store.versions.insertFile(file('f_sig', { fileName: 'app.exe.sig', fileType: 'SIGNATURE', platform: 'windows', arch: 'x64' }));
      // A failed MAIN file releases its slot.
      expect(await store.versions.setFileStatus('f_windows_x64', 'pending', 'failed', null, at(1))).to.include({ status: 'failed' });
      await store.versions.insertFile(file('f_again', { fileName: 'app-again.exe', fileType: 'MAIN', platform: 'windows', arch: 'x64' }));
    });

    it('reports a MAIN file that collides on both its name and the MAIN slot as a mainFile duplicate', async () => {
      await store.versions.insertFile(file('f_1', { fileName: 'app.exe', fileType: 'MAIN' }));
      await expectDuplicate(store.versions.insertFile(file('f_2', { fileName: 'app.exe', fileType: 'MAIN' })), 'mainFile');
      await store.versions.insertFile(file('f_3', { fileName: 'app.dmg', fileType: 'MAIN', platform: 'macos', arch: 'arm64' }));
      await expectDuplicate(store.versions.insertFile(file('f_4', { fileName: 'app.dmg', fileType: 'MAIN', platform: 'macos', arch: 'arm64' })), 'mainFile');
      await expectDuplicate(store.versions.insertFile(file('f_5', { fileName: 'app.dmg', fileType: 'MAIN', platform: 'macos', arch: 'x64' })), 'fileName');
    });

    it('lets a failed file release its name and its MAIN slot', async () => {
      await store.versions.insertFile(file('f_1', { fileName: 'app.exe', fileType: 'MAIN', status: 'pending', checksum: null }));
      expect(await store.versions.setFileStatus('f_1', 'pending', 'failed', null, at(2))).to.include({ status: 'failed' });
      await store.versions.insertFile(file('f_2', { fileName: 'app.exe', fileType: 'MAIN' }));
      await store.versions.insertFile(file('f_3', { fileName: 'app.exe', fileType: 'MAIN', status: 'failed' }));
      await expectDuplicate(store.versions.insertFile(file('f_4', { fileName: 'other.exe', fileType: 'MAIN' })), 'mainFile');
      await expectDuplicate(store.versions.insertFile(file('f_5', { fileName: 'app.exe' })), 'fileName');
    });

    it('claimFileObject points a pending file, and only a pending one, at an object', async () => {
      const objectKey = `files/app_1/sha256/${'ab'.repeat(32)}`;
      await store.versions.insertFile(file('f_1', { status: 'pending', checksum: null, storageKey: 'files/app_1/f_1' }));
      await store.versions.insertFile(file('f_2', { storageKey: 'files/app_1/f_2' }));
      await store.versions.insertFile(file('f_3', { status: 'failed', checksum: null, storageKey: 'files/app_1/f_3' }));
      const claimed = await store.versions.claimFileObject('f_1', objectKey);
      expect(claimed).to.include({ fileId: 'f_1', status: 'pending', storageKey: objectKey });
      expect(await store.versions.getFile('f_1')).to.deep.equal(claimed);
      // A published file's object never changes; a failed one's is settled.
      expect(await store.versions.claimFileObject('f_2', objectKey)).to.equal(null);
      expect(await store.versions.claimFileObject('f_3', objectKey)).to.equal(null);
      expect(await store.versions.claimFileObject('f_unknown', objectKey)).to.equal(null);
      expect(await store.versions.getFile('f_2')).to.include({ storageKey: 'files/app_1/f_2' });
      expect(await store.versions.getFile('f_3')).to.include({ storageKey: 'files/app_1/f_3' });
    });

    it('fileObjectShared answers whether another pending or available file points at an object', async () => {
      const objectKey = `files/app_1/sha256/${'cd'.repeat(32)}`;
      await store.versions.insertFile(file('f_1', { fileName: 'a.exe', storageKey: objectKey }));
      expect(await store.versions.fileObjectShared(objectKey, 'f_1')).to.equal(false);
      expect(await store.versions.fileObjectShared(objectKey, 'f_other')).to.equal(true);
      // A failed file points at nothing it keeps.
      await store.versions.insertFile(file('f_2', { fileName: 'b.exe', status: 'failed', checksum: null, storageKey: objectKey }));
      expect(await store.versions.fileObjectShared(objectKey, 'f_1')).to.equal(false);
      // A pending file that has claimed the object, in another version, keeps it.
      await store.versions.insertFile(file('f_3', { fileName: 'c.exe', version: '2.0.0', status: 'pending', checksum: null, storageKey: 'files/app_1/f_3' }));
      expect(await store.versions.fileObjectShared(objectKey, 'f_1')).to.equal(false);
      await store.versions.claimFileObject('f_3', objectKey);
      expect(await store.versions.fileObjectShared(objectKey, 'f_1')).to.equal(true);
      expect(await store.versions.fileObjectShared(objectKey, 'f_3')).to.equal(true);
      // Once the other file is deleted, the object is the first file's alone.
      expect(await store.versions.setFileStatus('f_3', 'pending', 'failed', null, at(2))).to.include({ status: 'failed' });
      expect(await store.versions.fileObjectShared(objectKey, 'f_1')).to.equal(false);
      expect((await store.versions.deleteFile('f_1')).outcome).to.equal('deleted');
      expect(await store.versions.fileObjectShared(objectKey, 'f_none')).to.equal(false);
      expect(await store.versions.fileObjectShared(`files/app_1/sha256/${'ef'.repeat(32)}`, 'f_none')).to.equal(false);
    });

    it('moves a file between statuses only from the expected one (compare-and-set)', async () => {
      const pending = file('f_1', { status: 'pending', checksum: null });
      await store.versions.insertFile(pending);
      expect(await store.versions.setFileStatus('f_1', 'available', 'failed', null, at(1))).to.equal(null);
      expect(await store.versions.getFile('f_1')).to.deep.equal(pending);
      const available = await store.versions.setFileStatus('f_1', 'pending', 'available', 'sha256:abc', at(4));
      expect(available).to.deep.equal({ ...pending, status: 'available', checksum: 'sha256:abc', updatedAt: at(4) });
      expect(await store.versions.setFileStatus('f_1', 'pending', 'available', 'sha256:def', at(5))).to.equal(null);
      expect(await store.versions.getFile('f_1')).to.deep.equal(available);
      expect(await store.versions.setFileStatus('f_unknown', 'pending', 'available', null, at(7))).to.equal(null);
      await store.versions.insertFile(file('f_2', { status: 'pending', checksum: null }));
      const failed = await store.versions.setFileStatus('f_2', 'pending', 'failed', null, at(6));
      expect(failed).to.include({ status: 'failed', checksum: null });
      // A settled file stays settled: a failed upload is not revived.
      expect(await store.versions.setFileStatus('f_2', 'failed', 'available', 'sha256:abc', at(7))).to.equal(null);
      expect(await store.versions.getFile('f_2')).to.deep.equal(failed);
    });

    describe('purged releases', () => {
      it('deletes every version and file record of an application only once its purge has started', async () => {
        await store.applications.createApplication(applicationRecord('app_1'));
        await store.versions.upsertVersion('app_1', '1.0.0', { initialStatus: 'published' }, at(1));
        await store.versions.upsertVersion('app_1', '1.1.0', { initialStatus: 'published' }, at(1));
        await store.versions.transitionVersion('app_1', '1.1.0', 'yanked', at(2));
        await store.versions.upsertVersion('app_1', '2.0.0', { initialStatus: 'draft' }, at(1));
        await store.versions.insertFile(file('f_1'));
        await store.versions.insertFile(file('f_2', { version: '1.1.0' }));
        await store.versions.insertFile(file('f_3', { version: '2.0.0', status: 'pending', checksum: null }));
        const other = await store.versions.insertFile(file('f_4', { applicationId: 'app_2' }));
        await store.versions.upsertVersion('app_2', '1.0.0', {}, at(1));
        expect(await store.versions.deletePurgedReleases('app_1')).to.equal(null);
        await store.applications.softDeleteApplication('app_1', at(3));
        expect(await store.versions.deletePurgedReleases('app_1')).to.equal(null);
        expect(await store.versions.listVersions('app_1')).to.have.length(3);
        await store.applications.startReleasePurge('app_1', at(3), at(4));
        expect(await store.versions.deletePurgedReleases('app_1')).to.deep.equal({ versions: 3, files: 3 });
        expect(await store.versions.listVersions('app_1')).to.deep.equal([]);
        expect(await store.versions.getFile('f_1')).to.equal(null);
        expect(await store.versions.deletePurgedReleases('app_1')).to.deep.equal({ versions: 0, files: 0 });
        expect(await store.versions.getFile('f_4')).to.deep.equal(other);
        expect(await store.versions.getVersion('app_2', '1.0.0')).to.not.equal(null);
      });
    });

    describe('immutable published files', () => {
      const published = async () => {
        await store.versions.upsertVersion('app_1', '1.0.0', { initialStatus: 'published' }, at(1));
        return store.versions.insertFile(file('f_pub', { fileType: 'MAIN', sha512: 'b3JpZ2luYWw=', sha1: '0b'.repeat(20), updatedAt: at(1) }));
      };

      it('never moves an available file out of available nor replaces its checksum through setFileStatus', async () => {
        const stored = await published();
        for (const to of ['failed', 'pending', 'available'] as const) {
          expect(await store.versions.setFileStatus('f_pub', 'available', to, `sha256:${'ee'.repeat(32)}`, at(5))).to.equal(null);
        }
        expect(await store.versions.setFileStatus('f_pub', 'pending', 'available', `sha256:${'ee'.repeat(32)}`, at(5))).to.equal(null);
        expect(await store.versions.getFile('f_pub')).to.deep.equal(stored);
      });

      it('never replaces a recorded digest through setFileDigests; it only fills in a missing one', async () => {
        const stored = await published();
        expect(await store.versions.setFileDigests('f_pub', { sha512: 'c3dhcHBlZA==', sha1: 'ff'.repeat(20) })).to.deep.equal(stored);
        expect(await store.versions.getFile('f_pub')).to.deep.equal(stored);
        const halfway = await store.versions.insertFile(file('f_half', { sha512: 'b3JpZ2luYWw=' }));
        expect(await store.versions.setFileDigests('f_half', { sha512: 'c3dhcHBlZA==', sha1: '0c'.repeat(20) })).to.deep.equal({ ...halfway, sha1: '0c'.repeat(20) });
      });

      it('never writes a published file again through a repeated publishFile, whatever digests it names', async () => {
        const stored = await published();
        const result = await store.versions.publishFile('f_pub', { checksum: `sha256:${'ee'.repeat(32)}`, sha512: 'c3dhcHBlZA==', sha1: 'ff'.repeat(20), release: {} }, at(6));
        expect(result).to.have.property('outcome', 'published');
        expect(await store.versions.getFile('f_pub')).to.deep.equal(stored);
      });

      it('refuses a file record under a published file\'s id, and the deletion of the file or its version', async () => {
        const stored = await published();
        expect(await rejectionOf(store.versions.insertFile(file('f_pub', { fileName: 'other.bin', checksum: `sha256:${'ee'.repeat(32)}` })))).to.be.instanceOf(Error);
        expect(await store.versions.deleteFile('f_pub')).to.deep.include({ outcome: 'refused', reason: 'published' });
        expect(await store.versions.deleteVersion('app_1', '1.0.0')).to.have.property('outcome', 'not-draft');
        expect(await store.versions.transitionVersion('app_1', '1.0.0', 'yanked', at(7), { yankReason: 'bad build' })).to.have.property('outcome', 'applied');
        expect(await store.versions.deleteFile('f_pub')).to.deep.include({ outcome: 'refused', reason: 'yanked' });
        expect(await store.versions.deleteVersion('app_1', '1.0.0')).to.have.property('outcome', 'not-draft');
        expect(await store.versions.getFile('f_pub')).to.deep.equal(stored);
      });
    });

    describe('publishing an uploaded file', () => {
      const digests = { checksum: `sha256:${'cd'.repeat(32)}`, sha512: 'c2hhNTEyIG9mIHRoZSBieXRlcw==', sha1: 'ab'.repeat(20) };
      const pendingFile = (fileId: string, overrides: Partial<FileRecord> = {}) =>
        file(fileId, { status: 'pending', checksum: null, fileType: 'MAIN', ...overrides });

      it('makes the pending file available with its digests and creates its version with the upload\'s fields', async () => {
        const pending = await store.versions.insertFile(pendingFile('f_1', { platform: 'windows', arch: 'x64' }));
        const result = await store.versions.publishFile('f_1', {
          ...digests, release: { releaseNotes: 'Beta notes', requiredTier: 'gold', channel: 'beta', status: 'draft' },
        }, at(2));
        const version = versionRecord('app_1', '1.0.0', {
          releaseNotes: 'Beta notes', requiredTier: 'gold', channel: 'beta', status: 'draft', publishedAt: null, createdAt: at(2), updatedAt: at(2),
        });
        const published = { ...pending, status: 'available' as const, ...digests, updatedAt: at(2) };
        expect(result).to.deep.equal({ outcome: 'published', file: published, version });
        expect(await store.versions.getFile('f_1')).to.deep.equal(published);
        expect(await store.versions.getVersion('app_1', '1.0.0')).to.deep.equal(version);
      });

      it('keeps what a package says of itself with the file it publishes, as given', async () => {
        const packageInfo: PackageInfo = {
          format: 'deb',
          fields: [['Package', 'acme-tool'], ['Version', '1.0.0'], ['Architecture', 'amd64'], ['Description', 'A tool\n continued line']],
        };
        const pending = await store.versions.insertFile(pendingFile('f_1', { fileName: 'acme-tool_1.0.0_amd64.deb', platform: 'linux', arch: 'x64' }));
        expect(pending.packageInfo).to.equal(null);
        const result = await store.versions.publishFile('f_1', { ...digests, packageInfo, release: {} }, at(2));
        expect(result.outcome === 'published' && result.file.packageInfo).to.deep.equal(packageInfo);
        expect((await store.versions.getFile('f_1'))?.packageInfo).to.deep.equal(packageInfo);
        const [version] = await store.versions.listVersions('app_1');
        expect(version.files[0].packageInfo).to.deep.equal(packageInfo);
        // Other files keep none.
        await store.versions.insertFile(pendingFile('f_2', { fileName: 'setup.exe', fileType: 'OTHER' }));
        const other = await store.versions.publishFile('f_2', { ...digests, release: {} }, at(3));
        expect(other.outcome === 'published' && other.file.packageInfo).to.equal(null);
      });

      it('creates a version that the upload names nothing of in the default channel, published', async () => {
        await store.versions.insertFile(pendingFile('f_1'));
        const result = await store.versions.publishFile('f_1', { ...digests, release: {} }, at(2));
        expect(result.outcome === 'published' && result.version).to.deep.equal(
          versionRecord('app_1', '1.0.0', { publishedAt: at(2), createdAt: at(2), updatedAt: at(2) }));
      });

      it("creates a version the upload names no status of with the application's default (createdStatus), and never checks an existing version against it", async () => {
        await store.versions.insertFile(pendingFile('f_1'));
        const drafted = await store.versions.publishFile('f_1', { ...digests, release: { createdStatus: 'draft' } }, at(2));
        expect(drafted.outcome === 'published' && drafted.version).to.deep.include({ status: 'draft', publishedAt: null });
        await store.versions.insertFile(pendingFile('f_2', { version: '2.0.0' }));
        const named = await store.versions.publishFile('f_2', { ...digests, release: { status: 'published', createdStatus: 'draft' } }, at(3));
        expect(named.outcome === 'published' && named.version).to.deep.include({ status: 'published', publishedAt: at(3) });
        await store.versions.insertFile(pendingFile('f_3', { version: '2.0.0', fileType: 'OTHER' }));
        const added = await store.versions.publishFile('f_3', { ...digests, release: { createdStatus: 'draft' } }, at(4));
        expect(added.outcome === 'published' && added.version).to.deep.include({ status: 'published' });
      });

      it('writes the notes and tier to an existing version, never its channel or status', async () => {
        await store.versions.upsertVersion('app_1', '1.0.0', { releaseNotes: 'Old', channel: 'rc', initialStatus: 'draft' }, at(1));
        await store.versions.insertFile(pendingFile('f_1'));
        await store.versions.insertFile(pendingFile('f_2', { fileType: 'SIGNATURE' }));
        const named = await store.versions.publishFile('f_1', { ...digests, release: { releaseNotes: 'New', channel: 'rc', status: 'draft' } }, at(2));
        expect(named.outcome === 'published' && named.version).to.deep.include({ releaseNotes: 'New', channel: 'rc', status: 'draft', createdAt: at(1) });
        const unnamed = await store.versions.publishFile('f_2', { ...digests, release: { requiredTier: 'gold' } }, at(3));
        expect(unnamed.outcome === 'published' && unnamed.version).to.deep.include({ releaseNotes: 'New', requiredTier: 'gold', channel: 'rc', status: 'draft' });
      });

      it('refuses, writing nothing, when the version exists in another channel or status than the upload names', async () => {
        const existing = await store.versions.upsertVersion('app_1', '1.0.0', { releaseNotes: 'Old' }, at(1));
        const pending = await store.versions.insertFile(pendingFile('f_1'));
        for (const release of [{ channel: 'beta' }, { status: 'draft' as const }, { channel: 'stable', status: 'draft' as const }]) {
          const result = await store.versions.publishFile('f_1', { ...digests, release: { ...release, releaseNotes: 'Refused', requiredTier: 'gold' } }, at(2));
          expect(result, JSON.stringify(release)).to.deep.equal({ outcome: 'version-differs', version: existing });
        }
        expect(await store.versions.getFile('f_1')).to.deep.equal(pending);
        expect(await store.versions.getVersion('app_1', '1.0.0')).to.deep.equal(existing);
      });

      it('writes nothing for a file that failed meanwhile or does not exist: the version is neither created nor changed', async () => {
        await store.versions.insertFile(pendingFile('f_new', { version: '2.0.0' }));
        await store.versions.setFileStatus('f_new', 'pending', 'failed', null, at(1));
        const failed = await store.versions.getFile('f_new');
        const refused = { ...digests, release: { releaseNotes: 'Refused', requiredTier: 'gold' } };
        expect(await store.versions.publishFile('f_new', refused, at(2))).to.deep.equal({ outcome: 'not-pending', file: failed });
        expect(await store.versions.getVersion('app_1', '2.0.0')).to.equal(null);
        expect(await store.versions.getFile('f_new')).to.deep.equal(failed);

        const existing = await store.versions.upsertVersion('app_1', '1.0.0', { releaseNotes: 'Old' }, at(1));
        await store.versions.insertFile(pendingFile('f_old'));
        await store.versions.setFileStatus('f_old', 'pending', 'failed', null, at(1));
        expect(await store.versions.publishFile('f_old', refused, at(2))).to.include({ outcome: 'not-pending' });
        expect(await store.versions.getVersion('app_1', '1.0.0')).to.deep.equal(existing);
        expect(await store.versions.publishFile('f_unknown', refused, at(2))).to.deep.equal({ outcome: 'not-pending', file: null });
      });

      it('repeated for an available file, keeps its digests and applies the version fields again', async () => {
        await store.versions.insertFile(pendingFile('f_1'));
        const first = await store.versions.publishFile('f_1', { ...digests, release: { releaseNotes: 'Notes' } }, at(2));
        await store.versions.updateVersion('app_1', '1.0.0', { releaseNotes: 'Changed' }, at(3));
        const again = await store.versions.publishFile('f_1', { checksum: `sha256:${'ef'.repeat(32)}`, sha512: 'b3RoZXI=', sha1: 'ef'.repeat(20), release: { releaseNotes: 'Notes' } }, at(4));
        expect(again.outcome === 'published' && again.file).to.deep.equal(first.outcome === 'published' && first.file);
        expect(await store.versions.getVersion('app_1', '1.0.0')).to.deep.include({ releaseNotes: 'Notes', updatedAt: at(4) });
      });

      it('of two publications racing for one file, both see it published once', async () => {
        await store.versions.insertFile(pendingFile('f_1'));
        const results = await Promise.all([1, 2].map((n) => store.versions.publishFile('f_1', { ...digests, release: { releaseNotes: `racer ${n}` } }, at(n))));
        expect(results.map((result) => result.outcome)).to.deep.equal(['published', 'published']);
        expect(await store.versions.getFile('f_1')).to.include({ status: 'available', sha512: digests.sha512 });
      });
    });

    describe('signature problems', () => {
      it("records why a signature no longer verifies, and clears it, without touching anything else; lists it with its version's files", async () => {
        await store.versions.upsertVersion('app_1', '1.0.0', {}, at(1));
        const stored = await store.versions.insertFile(file('f_sig', { fileType: 'SIGNATURE', updatedAt: at(3) }));
        expect(stored.signatureProblem).to.equal(null);
        const problem = 'the update signature does not verify against app.tar.gz: made with key 0123456789ABCDEF';
        expect(await store.versions.setSignatureProblem('f_sig', problem)).to.deep.equal({ ...stored, signatureProblem: problem });
        expect(await store.versions.getFile('f_sig')).to.deep.equal({ ...stored, signatureProblem: problem });
        expect((await store.versions.listVersions('app_1'))[0].files).to.deep.equal([{ ...stored, signatureProblem: problem }]);
        expect(await store.versions.setSignatureProblem('f_sig', null)).to.deep.equal(stored);
        expect(await store.versions.getFile('f_sig')).to.deep.equal(stored);
        expect(await store.versions.setSignatureProblem('f_unknown', problem)).to.equal(null);
      });
    });

    describe('digests', () => {
      it('records a SHA-512 and a SHA-1 beside the checksum without touching anything else', async () => {
        const stored = await store.versions.insertFile(file('f_1', { updatedAt: at(3) }));
        const digests = { sha512: 'ZGlnZXN0', sha1: '0a'.repeat(20) };
        expect(await store.versions.setFileDigests('f_1', digests)).to.deep.equal({ ...stored, ...digests });
        expect(await store.versions.getFile('f_1')).to.deep.equal({ ...stored, ...digests });
        expect(await store.versions.setFileDigests('f_unknown', digests)).to.equal(null);
      });

      it('pages through the available files without a SHA-512 or a SHA-1 by fileId, resuming after the last one given', async () => {
        await store.versions.insertFile(file('f_06'));
        await store.versions.insertFile(file('f_01'));
        await store.versions.insertFile(file('f_02', { sha512: 'ZG9uZQ==', sha1: '02'.repeat(20) }));
        // A file stored when only SHA-512 was kept still lacks its SHA-1.
        await store.versions.insertFile(file('f_09', { sha512: 'ZG9uZQ==' }));
        await store.versions.insertFile(file('f_03', { applicationId: 'app_2' }));
        await store.versions.insertFile(file('f_04', { version: '2.0.0' }));
        await store.versions.insertFile(file('f_05', { status: 'pending', checksum: null }));
        await store.versions.insertFile(file('f_07', { status: 'failed' }));
        await store.versions.insertFile(file('f_08'));
        const page = async (limit: number, after?: string) => (await store.versions.listFilesMissingDigests(limit, after)).map((f) => f.fileId);
        expect(await page(2)).to.deep.equal(['f_01', 'f_03']);
        await store.versions.setFileDigests('f_01', { sha512: 'MDE=', sha1: '01'.repeat(20) });
        await store.versions.setFileDigests('f_03', { sha512: 'MDM=', sha1: '03'.repeat(20) });
        expect(await page(2, 'f_03')).to.deep.equal(['f_04', 'f_06']);
        // A backfill restarted after f_04 picks up where it stopped.
        expect(await page(2, 'f_04')).to.deep.equal(['f_06', 'f_08']);
        expect(await page(2, 'f_08')).to.deep.equal(['f_09']);
        expect(await page(2, 'f_09')).to.deep.equal([]);
        expect(await page(10)).to.deep.equal(['f_04', 'f_06', 'f_08', 'f_09']);
        expect(await store.versions.listFilesMissingDigests(1)).to.deep.equal([file('f_04', { version: '2.0.0' })]);
        for (const bad of [0, -1, 1.5]) expect(await rejectionOf(store.versions.listFilesMissingDigests(bad))).to.be.instanceOf(RangeError);
      });

      it('lists a file once it is available, and no more once it has its digest', async () => {
        await store.versions.insertFile(file('f_1', { status: 'pending', checksum: null }));
        expect(await store.versions.listFilesMissingDigests(10)).to.deep.equal([]);
        await store.versions.setFileStatus('f_1', 'pending', 'available', 'sha256:abc', at(1));
        expect((await store.versions.listFilesMissingDigests(10)).map((f) => f.fileId)).to.deep.equal(['f_1']);
        await store.versions.setFileDigests('f_1', { sha512: 'ZGlnZXN0', sha1: '0a'.repeat(20) });
        expect(await store.versions.listFilesMissingDigests(10)).to.deep.equal([]);
      });
    });
  });

  describe('deleting versions and files', () => {
    it('deletes a draft version with every file record it has, and refuses a published or yanked one', async () => {
      await store.versions.upsertVersion('app_1', '1.0.0', { initialStatus: 'draft' }, at(1));
      const main = await store.versions.insertFile(file('f_1', { fileType: 'MAIN', createdAt: at(1) }));
      const failed = await store.versions.insertFile(file('f_2', { status: 'failed', createdAt: at(2) }));
      const pending = await store.versions.insertFile(file('f_3', { status: 'pending', checksum: null, createdAt: at(3) }));
      await store.versions.insertFile(file('f_other', { version: '2.0.0' }));
      const draft = await store.versions.getVersion('app_1', '1.0.0');
      expect(await store.versions.deleteVersion('app_1', '1.0.0')).to.deep.equal({ outcome: 'deleted', version: draft, files: [main, failed, pending] });
      expect(await store.versions.getVersion('app_1', '1.0.0')).to.equal(null);
      expect(await Promise.all(['f_1', 'f_2', 'f_3'].map((id) => store.versions.getFile(id)))).to.deep.equal([null, null, null]);
      expect(await store.versions.getFile('f_other')).to.not.equal(null);
      expect(await store.versions.deleteVersion('app_1', '1.0.0')).to.deep.equal({ outcome: 'not-found' });
      // Its name and MAIN slot are free again.
      await store.versions.insertFile(file('f_4', { fileType: 'MAIN', fileName: 'f_1.bin' }));

      const published = await store.versions.upsertVersion('app_1', '3.0.0', {}, at(4));
      await store.versions.insertFile(file('f_5', { version: '3.0.0' }));
      expect(await store.versions.deleteVersion('app_1', '3.0.0')).to.deep.equal({ outcome: 'not-draft', version: published });
      const yanked = await store.versions.transitionVersion('app_1', '3.0.0', 'yanked', at(5));
      expect(await store.versions.deleteVersion('app_1', '3.0.0')).to.deep.equal({ outcome: 'not-draft', version: yanked.outcome === 'applied' && yanked.version });
      expect(await store.versions.getFile('f_5')).to.not.equal(null);
    });

    it('deletes a failed file anywhere and an available one of a draft; refuses a pending one and a shipped one', async () => {
      await store.versions.upsertVersion('app_1', '1.0.0', { initialStatus: 'draft' }, at(1));
      await store.versions.upsertVersion('app_1', '2.0.0', {}, at(1));
      const draftFile = await store.versions.insertFile(file('f_draft'));
      const shipped = await store.versions.insertFile(file('f_shipped', { version: '2.0.0' }));
      const failed = await store.versions.insertFile(file('f_failed', { version: '2.0.0', status: 'failed' }));
      const pending = await store.versions.insertFile(file('f_pending', { status: 'pending', checksum: null }));
      expect(await store.versions.deleteFile('f_draft')).to.deep.equal({ outcome: 'deleted', file: draftFile });
      expect(await store.versions.deleteFile('f_failed')).to.deep.equal({ outcome: 'deleted', file: failed });
      expect(await store.versions.deleteFile('f_pending')).to.deep.equal({ outcome: 'refused', file: pending, reason: 'pending' });
      expect(await store.versions.deleteFile('f_shipped')).to.deep.equal({ outcome: 'refused', file: shipped, reason: 'published' });
      await store.versions.transitionVersion('app_1', '2.0.0', 'yanked', at(2));
      expect(await store.versions.deleteFile('f_shipped')).to.deep.equal({ outcome: 'refused', file: shipped, reason: 'yanked' });
      expect(await store.versions.deleteFile('f_draft')).to.deep.equal({ outcome: 'not-found' });
      expect((await store.versions.listVersions('app_1')).map((v) => [v.version, v.files.map((f) => f.fileId)])).to.deep.equal([
        ['2.0.0', ['f_shipped']], ['1.0.0', ['f_pending']],
      ]);
    });
  });
});
