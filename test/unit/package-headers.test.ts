import { expect } from 'chai';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { readDebControl } from '../../shared/packages/deb-control';
import { PackageFormatError } from '../../shared/packages/read-prefix';
import { readRpmHeader } from '../../shared/packages/rpm-header';
import { controlField } from '../../shared/packages/package-identity';
import { buildDeb, buildRpm } from '../support/linux-packages';

/** The package readers on packages built by dpkg-deb and rpmbuild, each compression dpkg-deb writes. */
describe('package headers read at upload', function () {
  this.timeout(60_000);
  let directory: string;
  before(async () => {
    directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'bds-package-headers-'));
  });
  after(() => fsp.rm(directory, { recursive: true, force: true }));

  for (const compression of ['gzip', 'xz', 'zstd'] as const) {
    it(`reads a .deb's control paragraph from control.tar compressed with ${compression}`, async () => {
      const file = await buildDeb(directory, { name: `tool-${compression}`, version: '2.0.0~beta.1-3', arch: 'arm64' }, compression);
      const { fields } = await readDebControl(fs.createReadStream(file));
      expect(controlField(fields, 'Package')).to.equal(`tool-${compression}`);
      expect(controlField(fields, 'version')).to.equal('2.0.0~beta.1-3');
      expect(controlField(fields, 'Architecture')).to.equal('arm64');
      expect(controlField(fields, 'Description')).to.equal(`tool-${compression} for the repository tests\n A package built by dpkg-deb in a test.`);
    });
  }

  it('reads an .rpm header: identity, files, and the header range', async () => {
    const file = await buildRpm(directory, { name: 'tool-rpm', version: '1.4.0', arch: 'aarch64', release: '2' });
    const header = await readRpmHeader(fs.createReadStream(file));
    expect(header).to.deep.include({ name: 'tool-rpm', version: '1.4.0', release: '2', arch: 'aarch64', epoch: 0, license: 'MIT' });
    expect(header.files).to.deep.equal(['/usr/share/tool-rpm/VERSION']);
    expect(header.provides.map((dependency) => [dependency.name, dependency.flags, dependency.version, dependency.release]))
      .to.deep.include(['tool-rpm(aarch-64)', 'EQ', '1.4.0', '2']);
    expect(header.headerEnd).to.be.greaterThan(header.headerStart).and.to.be.at.most((await fsp.stat(file)).size);
  });

  it('refuses bytes that are no package, and a truncated one, as format errors', async () => {
    const deb = await fsp.readFile(await buildDeb(directory, { name: 'cut', version: '1.0.0', arch: 'amd64' }));
    for (const bytes of [Buffer.from('not an archive at all'), deb.subarray(0, 100), Buffer.alloc(0)]) {
      let error: unknown;
      await readDebControl(Readable.from([bytes])).catch((caught: unknown) => { error = caught; });
      expect(error).to.be.instanceOf(PackageFormatError);
      error = undefined;
      await readRpmHeader(Readable.from([bytes])).catch((caught: unknown) => { error = caught; });
      expect(error).to.be.instanceOf(PackageFormatError);
    }
  });
});
