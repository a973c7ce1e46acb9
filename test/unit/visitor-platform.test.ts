import { expect } from 'chai';
import { primaryBuilds, visitorPlatform } from '../../shared/releases/visitor-platform';
import type { Arch, Platform } from '../../shared/releases/platforms';

const UA = {
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  macSafari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
  linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  linuxArm: 'Mozilla/5.0 (X11; Linux aarch64; rv:128.0) Gecko/20100101 Firefox/128.0',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
};

const build = (platform: Platform, arch: Arch) => ({ platform, arch, name: `${platform}-${arch}` });

describe('the visitor platform behind a download page', () => {
  it('tells Windows, Linux and its arches from the User-Agent', () => {
    expect(visitorPlatform(UA.windows)).to.deep.equal({ platform: 'windows', archs: ['x64'], certain: false });
    expect(visitorPlatform(UA.linux)).to.deep.equal({ platform: 'linux', archs: ['x64'], certain: false });
    expect(visitorPlatform(UA.linuxArm)).to.deep.equal({ platform: 'linux', archs: ['arm64'], certain: false });
  });

  it('takes a Mac for either arch, since Apple Silicon browsers report an Intel Mac', () => {
    expect(visitorPlatform(UA.mac)).to.deep.equal({ platform: 'macos', archs: ['arm64', 'x64'], certain: false });
    expect(visitorPlatform(UA.macSafari).archs).to.deep.equal(['arm64', 'x64']);
  });

  it("lets Chromium's client hints decide the platform and the arch", () => {
    expect(visitorPlatform(UA.mac, { platform: '"macOS"', architecture: '"arm"', bitness: '"64"' })).to.deep.equal({ platform: 'macos', archs: ['arm64'], certain: true });
    expect(visitorPlatform(UA.mac, { platform: 'macOS', architecture: 'x86' })).to.deep.equal({ platform: 'macos', archs: ['x64'], certain: true });
    expect(visitorPlatform(UA.windows, { platform: 'Windows', architecture: 'arm', bitness: '64' }).archs).to.deep.equal(['arm64']);
    expect(visitorPlatform(UA.windows, { platform: 'Windows', architecture: '', bitness: '' }).archs).to.deep.equal(['x64']);
  });

  it('offers no desktop build to a phone', () => {
    expect(visitorPlatform(UA.android).platform).to.equal(null);
    expect(visitorPlatform(UA.iphone).platform).to.equal(null);
    expect(visitorPlatform(UA.linux, { platform: '"Android"' }).platform).to.equal(null);
    expect(primaryBuilds([build('linux', 'x64')], visitorPlatform(UA.android))).to.deep.equal([]);
  });

  it('offers both Mac builds when they differ, one universal build once, and a portable build when nothing closer exists', () => {
    const mac = visitorPlatform(UA.mac);
    expect(primaryBuilds([build('macos', 'x64'), build('macos', 'arm64'), build('windows', 'x64')], mac).map((b) => b.name)).to.deep.equal(['macos-arm64', 'macos-x64']);
    expect(primaryBuilds([build('macos', 'universal'), build('windows', 'x64')], mac).map((b) => b.name)).to.deep.equal(['macos-universal']);
    expect(primaryBuilds([build('windows', 'x64'), build('any', 'any')], visitorPlatform(UA.linux)).map((b) => b.name)).to.deep.equal(['any-any']);
    expect(primaryBuilds([build('windows', 'x64'), build('windows', 'arm64')], visitorPlatform(UA.windows)).map((b) => b.name)).to.deep.equal(['windows-x64']);
    expect(primaryBuilds([build('windows', 'x64')], visitorPlatform(UA.linux))).to.deep.equal([]);
  });
});
