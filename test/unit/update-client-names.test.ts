import { expect } from 'chai';
import { DEFAULT_CHANNELS } from '../../shared/releases/channels';
import { Arch, ARCHS } from '../../shared/releases/platforms';
import { ElectronChannelFile, OperatingSystem, archOfSquirrelMacArch, archOfSquirrelWindowsArch, archOfTauriArch, electronChannelFileName, parseElectronChannelFile, parseVelopackChannel, platformOfTauriTarget } from '../../shared/releases/update-client-names';

describe('update client names', () => {
  describe('electron-updater channel files', () => {
    // What Provider.getCustomChannelName + getChannelFilename produce for each client; `latest` is stable.
    const files: Array<[string, ElectronChannelFile]> = [
      ['latest.yml', { channel: 'stable', platform: 'windows', arch: null }],
      ['latest-mac.yml', { channel: 'stable', platform: 'macos', arch: null }],
      ['latest-linux.yml', { channel: 'stable', platform: 'linux', arch: 'x64' }],
      ['latest-linux-arm64.yml', { channel: 'stable', platform: 'linux', arch: 'arm64' }],
      ['latest-linux-ia32.yml', { channel: 'stable', platform: 'linux', arch: 'ia32' }],
      // process.arch is "arm" on 32-bit ARM, and electron-builder writes armv7l builds as -arm.
      ['latest-linux-arm.yml', { channel: 'stable', platform: 'linux', arch: 'armv7l' }],
      ['beta.yml', { channel: 'beta', platform: 'windows', arch: null }],
      ['beta-mac.yml', { channel: 'beta', platform: 'macos', arch: null }],
      ['beta-linux.yml', { channel: 'beta', platform: 'linux', arch: 'x64' }],
      ['beta-linux-arm64.yml', { channel: 'beta', platform: 'linux', arch: 'arm64' }],
      ['dev-linux-arm.yml', { channel: 'dev', platform: 'linux', arch: 'armv7l' }],
      // A client configured with our own name for the most stable channel.
      ['stable.yml', { channel: 'stable', platform: 'windows', arch: null }],
      ['stable-mac.yml', { channel: 'stable', platform: 'macos', arch: null }],
    ];
    for (const [fileName, expected] of files) {
      it(`${fileName} → ${expected.channel} ${expected.platform} ${expected.arch ?? '(every arch)'}`, () => {
        expect(parseElectronChannelFile(fileName, DEFAULT_CHANNELS)).to.deep.equal(expected);
      });
    }

    it('names with hyphens in the channel, as channel names may hold them', () => {
      const channels = ['stable', 'early-access', 'mac', 'linux', 'x-linuxy'];
      expect(parseElectronChannelFile('early-access.yml', channels)).to.deep.equal({ channel: 'early-access', platform: 'windows', arch: null });
      expect(parseElectronChannelFile('early-access-mac.yml', channels)).to.deep.equal({ channel: 'early-access', platform: 'macos', arch: null });
      expect(parseElectronChannelFile('early-access-linux-arm64.yml', channels)).to.deep.equal({ channel: 'early-access', platform: 'linux', arch: 'arm64' });
      expect(parseElectronChannelFile('mac-mac.yml', channels)).to.deep.equal({ channel: 'mac', platform: 'macos', arch: null });
      expect(parseElectronChannelFile('mac.yml', channels)).to.deep.equal({ channel: 'mac', platform: 'windows', arch: null });
      expect(parseElectronChannelFile('linux-linux.yml', channels)).to.deep.equal({ channel: 'linux', platform: 'linux', arch: 'x64' });
      expect(parseElectronChannelFile('x-linuxy.yml', channels)).to.deep.equal({ channel: 'x-linuxy', platform: 'windows', arch: null });
    });

    it('the most stable channel of a custom list is latest', () => {
      expect(parseElectronChannelFile('latest-mac.yml', ['production', 'canary'])).to.deep.equal({ channel: 'production', platform: 'macos', arch: null });
    });

    for (const fileName of [
      'latest.yaml', 'latest.json', 'latest-mac.json', 'latest', '.yml', 'gamma.yml', 'Latest.yml', 'latest-windows.yml',
      'latest-linux-x64.yml', 'latest-linux-armv7l.yml', 'latest-linux-ppc64.yml', 'latest-linux-s390x.yml', 'latest-linux-.yml',
      'latest-mac-arm64.yml', 'latest-win.yml', 'latest-linux-arm64-mac.yml', '-mac.yml', 'latest.yml.yml', '__proto__.yml',
    ]) {
      it(`refuses ${fileName}`, () => expect(parseElectronChannelFile(fileName, DEFAULT_CHANNELS)).to.equal(null));
    }

    it('names every (channel, platform, arch) it can parse the way the client asks, and reads it back', () => {
      const cases: Array<[OperatingSystem, Arch, string]> = [
        ['windows', 'x64', 'latest.yml'], ['windows', 'arm64', 'latest.yml'], ['macos', 'universal', 'latest-mac.yml'],
        ['macos', 'arm64', 'latest-mac.yml'], ['linux', 'x64', 'latest-linux.yml'], ['linux', 'armv7l', 'latest-linux-arm.yml'],
      ];
      for (const [platform, arch, fileName] of cases) {
        expect(electronChannelFileName(DEFAULT_CHANNELS, 'stable', platform, arch)).to.equal(fileName);
      }
      expect(electronChannelFileName(DEFAULT_CHANNELS, 'stable', 'linux', 'universal')).to.equal(null);
      expect(electronChannelFileName(DEFAULT_CHANNELS, 'beta', 'linux', 'arm64')).to.equal('beta-linux-arm64.yml');
      expect(electronChannelFileName(DEFAULT_CHANNELS, 'beta', 'linux', 'any')).to.equal(null);
      for (const channel of DEFAULT_CHANNELS) {
        for (const platform of ['windows', 'macos', 'linux'] as const) {
          for (const arch of ARCHS) {
            const fileName = electronChannelFileName(DEFAULT_CHANNELS, channel, platform, arch);
            if (fileName === null) continue;
            const parsed = parseElectronChannelFile(fileName, DEFAULT_CHANNELS);
            expect(parsed, fileName).to.deep.equal({ channel, platform, arch: platform === 'linux' ? arch : null });
          }
        }
      }
    });
  });

  describe('Tauri', () => {
    it('maps the updater target (OS) to our platform', () => {
      expect(platformOfTauriTarget('linux')).to.equal('linux');
      expect(platformOfTauriTarget('darwin')).to.equal('macos');
      expect(platformOfTauriTarget('windows')).to.equal('windows');
      for (const other of ['macos', 'Darwin', 'win32', 'linux-x86_64', 'toString', '__proto__', '']) {
        expect(platformOfTauriTarget(other), other).to.equal(null);
      }
    });

    it('maps the updater arch to ours', () => {
      expect(archOfTauriArch('x86_64')).to.equal('x64');
      expect(archOfTauriArch('aarch64')).to.equal('arm64');
      expect(archOfTauriArch('i686')).to.equal('ia32');
      expect(archOfTauriArch('armv7')).to.equal('armv7l');
      for (const other of ['riscv64', 'x64', 'arm64', 'universal', 'any', 'hasOwnProperty', '']) expect(archOfTauriArch(other), other).to.equal(null);
    });
  });

  describe('Squirrel.Mac', () => {
    it('takes process.arch of a Mac as the arch', () => {
      expect(archOfSquirrelMacArch('x64')).to.equal('x64');
      expect(archOfSquirrelMacArch('arm64')).to.equal('arm64');
      for (const other of ['universal', 'any', 'ia32', 'aarch64', 'ARM64', '']) expect(archOfSquirrelMacArch(other), other).to.equal(null);
    });
  });
});

describe("Squirrel.Windows' and Velopack's names", () => {
  it("map Squirrel.Windows' arch, the OS's, to ours", () => {
    expect(['amd64', 'x86', 'x64', 'arm64', 'constructor'].map(archOfSquirrelWindowsArch)).to.deep.equal(['x64', 'ia32', null, null, null]);
  });

  it("read a Velopack channel: an OS's default, one of ours, or both; nothing else", () => {
    const channels = ['stable', 'beta', 'dev'];
    expect(parseVelopackChannel('win', channels)).to.deep.equal({ channel: 'stable', platform: 'windows' });
    expect(parseVelopackChannel('osx', channels)).to.deep.equal({ channel: 'stable', platform: 'macos' });
    expect(parseVelopackChannel('linux', channels)).to.deep.equal({ channel: 'stable', platform: 'linux' });
    expect(parseVelopackChannel('beta', channels)).to.deep.equal({ channel: 'beta', platform: null });
    expect(parseVelopackChannel('beta-linux', channels)).to.deep.equal({ channel: 'beta', platform: 'linux' });
    for (const name of ['nightly', 'nightly-win', 'win-beta', 'Win', '__proto__', 'toString']) expect(parseVelopackChannel(name, channels), name).to.equal(null);
  });
});
