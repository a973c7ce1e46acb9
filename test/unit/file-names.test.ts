import { expect } from 'chai';
import { fileTypeOfName, nupkgName, nupkgOfVersion } from '../../shared/releases/file-names';

describe('file names', () => {
  it("read a NuGet update package's id, version and kind as Squirrel.Windows and Velopack name them", () => {
    expect(nupkgName('MyApp-1.2.0-full.nupkg')).to.deep.equal({ packageId: 'MyApp', version: '1.2.0', kind: 'full' });
    expect(nupkgName('MyApp-1.2.0-delta.nupkg')).to.deep.equal({ packageId: 'MyApp', version: '1.2.0', kind: 'delta' });
    expect(nupkgName('My-Cool3-App-1.0.1-build.23-full.nupkg')).to.deep.equal({ packageId: 'My-Cool3-App', version: '1.0.1-build.23', kind: 'full' });
    // Velopack's channel suffix outside Windows' default channel.
    expect(nupkgName('MyApp-2.0.0-linux-DELTA.NUPKG')).to.deep.equal({ packageId: 'MyApp', version: '2.0.0-linux', kind: 'delta' });
    for (const other of ['MyApp-1.2.0.nupkg', 'MyApp-full.nupkg', 'MyApp-beta-full.nupkg', 'MyApp-1.2.0-full.nupkg.sig', 'Setup.exe']) {
      expect(nupkgName(other), other).to.equal(null);
    }
  });

  it('tie a package to the release of its version, with or without a channel suffix', () => {
    const name = nupkgName('MyApp-1.2.0-linux-full.nupkg')!;
    expect(nupkgOfVersion(name, '1.2.0')).to.equal(true);
    expect(nupkgOfVersion(name, 'v1.2.0')).to.equal(true);
    expect(nupkgOfVersion(name, '1.2.0-linux.1')).to.equal(false);
    expect(nupkgOfVersion(nupkgName('MyApp-1.2.0-full.nupkg')!, '1.2.1')).to.equal(false);
  });

  it('make a package an UPDATE file and anything else MAIN when the upload declares no type', () => {
    expect(['App-1.0.0-full.nupkg', 'App-1.0.0-delta.nupkg', 'Setup.exe', 'App.nupkg'].map(fileTypeOfName)).to.deep.equal(['UPDATE', 'UPDATE', 'MAIN', 'MAIN']);
  });
});
