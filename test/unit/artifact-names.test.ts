import { expect } from 'chai';
import { guessFileTarget } from '../../shared/releases/artifact-names';

describe('guessing a build file\'s platform, arch and type from its name', () => {
  const cases: Array<[string, string]> = [
    ['App-1.2.3-arm64.dmg', 'macos/arm64/MAIN'],
    ['App-1.2.3.dmg', 'macos/x64/MAIN'],
    ['App-1.2.3-universal.dmg', 'macos/universal/MAIN'],
    ['App-1.2.3-arm64-mac.zip', 'macos/arm64/UPDATE'],
    ['App-1.2.3-mac.zip', 'macos/x64/UPDATE'],
    ['App-1.2.3-universal.zip', 'macos/universal/UPDATE'],
    ['App.app.tar.gz', 'macos/x64/MAIN'],
    ['App Setup 1.2.3.exe', 'windows/x64/MAIN'],
    ['App Setup 1.2.3-ia32.exe', 'windows/ia32/MAIN'],
    ['App-1.2.3-arm64.msi', 'windows/arm64/MAIN'],
    ['App-1.2.3-full.nupkg', 'windows/x64/OTHER'],
    ['app-1.2.3-x86_64.AppImage', 'linux/x64/MAIN'],
    ['app-1.2.3-arm64.AppImage', 'linux/arm64/MAIN'],
    ['app-1.2.3-armv7l.AppImage', 'linux/armv7l/MAIN'],
    ['app_1.2.3_amd64.deb', 'linux/x64/MAIN'],
    ['app_1.2.3_armhf.deb', 'linux/armv7l/MAIN'],
    ['app-1.2.3.aarch64.rpm', 'linux/arm64/MAIN'],
    ['app-1.2.3.i686.rpm', 'linux/ia32/MAIN'],
    ['app-1.2.3-linux-x64.tar.gz', 'linux/x64/MAIN'],
    ['App Setup 1.2.3.exe.blockmap', 'windows/x64/DEPENDENCY'],
    ['App-1.2.3-arm64-mac.zip.blockmap', 'macos/arm64/DEPENDENCY'],
    ['app-1.2.3-x86_64.AppImage.sig', 'linux/x64/SIGNATURE'],
    ['App.app.tar.gz.sig', 'macos/x64/SIGNATURE'],
    ['latest.yml', 'any/any/OTHER'],
    ['LICENSE.txt', 'any/any/DOCUMENTATION'],
    ['tool.bin', 'any/any/MAIN'],
    ['.sig', 'any/any/MAIN'],
  ];
  for (const [name, expected] of cases) {
    it(`${name} → ${expected}`, () => {
      const { platform, arch, fileType } = guessFileTarget(name);
      expect(`${platform}/${arch}/${fileType}`).to.equal(expected);
    });
  }
});
