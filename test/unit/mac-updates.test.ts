import { expect } from 'chai';
import { isZipArchive } from '../../shared/releases/file-names';
import { MacUpdateCandidate, macUpdateFeedProblems, macUpdateFiles, updateFileProblem } from '../../shared/releases/mac-updates';
import type { Arch, Platform } from '../../shared/releases/platforms';
import type { FileType } from '../../shared/releases/file-types';

const build = (fileName: string, fileType: FileType, platform: Platform = 'macos', arch: Arch = 'arm64'): MacUpdateCandidate =>
  ({ fileName, fileType, platform, arch });
const names = (files: MacUpdateCandidate[]) => files.map((file) => file.fileName);

describe('what a Mac update client can install', () => {
  it('recognises a zip by its name, in any case, and nothing else', () => {
    expect(['App.zip', 'App-arm64-mac.ZIP'].map(isZipArchive)).to.deep.equal([true, true]);
    expect(['App.dmg', 'App.pkg', 'App.zip.sig', 'zip'].map(isZipArchive)).to.deep.equal([false, false, false, false]);
  });

  it('offers the zips among MAIN and UPDATE files, an UPDATE zip in place of a MAIN zip of the same target, never a dmg or pkg', () => {
    const files = [
      build('App-arm64.dmg', 'MAIN'),
      build('App-arm64-mac.zip', 'UPDATE'),
      build('App-x64-mac.zip', 'MAIN', 'macos', 'x64'),
      build('App-x64-old-mac.zip', 'MAIN', 'macos', 'universal'),
      build('App-universal.zip', 'UPDATE', 'macos', 'universal'),
      build('App.pkg', 'MAIN', 'macos', 'ia32'),
      build('docs.zip', 'DOCUMENTATION'),
    ];
    expect(names(macUpdateFiles(files))).to.deep.equal(['App-arm64-mac.zip', 'App-x64-mac.zip', 'App-universal.zip']);
  });

  it('takes an UPDATE file only as a macOS zip', () => {
    expect(updateFileProblem({ fileType: 'UPDATE', fileName: 'App-mac.zip', platform: 'macos' })).to.equal(null);
    expect(updateFileProblem({ fileType: 'UPDATE', fileName: 'App.dmg', platform: 'macos' })).to.match(/must end in \.zip/);
    expect(updateFileProblem({ fileType: 'UPDATE', fileName: 'App.zip', platform: 'windows' })).to.match(/platform be macos/);
    expect(updateFileProblem({ fileType: 'MAIN', fileName: 'App.dmg', platform: 'macos' })).to.equal(null);
    expect(updateFileProblem({ fileType: 'UPDATE', fileName: 'App-1.2.0-full.nupkg', platform: 'windows' })).to.equal(null);
    expect(updateFileProblem({ fileType: 'UPDATE', fileName: 'App-1.2.0-linux-delta.nupkg', platform: 'linux' })).to.equal(null);
    expect(updateFileProblem({ fileType: 'UPDATE', fileName: 'App-1.2.0.nupkg', platform: 'windows' })).to.match(/full\.nupkg/);
  });

  it('names each macOS MAIN build without a zip for its arch, which a universal zip covers', () => {
    expect(macUpdateFeedProblems([build('App-arm64.dmg', 'MAIN'), build('Setup.exe', 'MAIN', 'windows', 'x64')])).to.deep.equal([
      'no .zip for macos/arm64: electron-updater and Squirrel.Mac cannot update to this version from App-arm64.dmg; '
        + 'upload the app as a .zip with fileType UPDATE beside it',
    ]);
    expect(macUpdateFeedProblems([build('App-arm64.dmg', 'MAIN'), build('App-arm64-mac.zip', 'UPDATE')])).to.deep.equal([]);
    expect(macUpdateFeedProblems([build('App-arm64.dmg', 'MAIN'), build('App-mac.zip', 'UPDATE', 'macos', 'universal')])).to.deep.equal([]);
    expect(macUpdateFeedProblems([build('App-arm64-mac.zip', 'MAIN')])).to.deep.equal([]);
    expect(macUpdateFeedProblems([build('App-arm64.dmg', 'MAIN'), build('App-x64-mac.zip', 'UPDATE', 'macos', 'x64')])).to.have.length(1);
  });
});
