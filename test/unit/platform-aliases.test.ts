import { expect } from 'chai';
import fc from 'fast-check';
import {
  ARCH_ALIASES,
  archFromAlias,
  ARCHS,
  hasExtension,
  PLATFORM_ALIASES,
  platformFromAlias,
  PLATFORMS,
  selectFileOfType,
} from '../../shared/releases/platforms';

/** Any-case spelling of a string: each letter upper or lower. */
const anyCase = (word: string) => fc.array(fc.boolean(), { minLength: word.length, maxLength: word.length })
  .map((uppers) => [...word].map((char, i) => (uppers[i] ? char.toUpperCase() : char.toLowerCase())).join(''));

describe('platform and arch aliases', () => {
  it('name the common spellings', () => {
    expect(['mac', 'macos', 'darwin', 'osx'].map(platformFromAlias)).to.deep.equal(['macos', 'macos', 'macos', 'macos']);
    expect(['win', 'windows'].map(platformFromAlias)).to.deep.equal(['windows', 'windows']);
    expect(['x64', 'amd64', 'x86_64'].map(archFromAlias)).to.deep.equal(['x64', 'x64', 'x64']);
    expect(['arm64', 'aarch64'].map(archFromAlias)).to.deep.equal(['arm64', 'arm64']);
    expect(['ia32', 'x86', 'i386', 'i686'].map(archFromAlias)).to.deep.equal(['ia32', 'ia32', 'ia32', 'ia32']);
  });

  it('map every alias, in any case, to a stored name other than any, and every stored name but any to itself', () => {
    for (const [table, stored, lookup] of [[PLATFORM_ALIASES, PLATFORMS, platformFromAlias], [ARCH_ALIASES, ARCHS, archFromAlias]] as const) {
      for (const name of stored) expect((lookup as (alias: string) => string | undefined)(name)).to.equal(name === 'any' ? undefined : name);
      fc.assert(fc.property(fc.constantFrom(...Object.keys(table)).chain((alias) => anyCase(alias).map((spelled) => [alias, spelled])), ([alias, spelled]) => {
        const value = (lookup as (alias: string) => string | undefined)(spelled);
        expect(value).to.equal(table[alias as keyof typeof table]);
        expect((stored as readonly string[]).includes(value as string) && value !== 'any').to.equal(true);
      }));
    }
  });

  it('know nothing else: no other string, and no property of plain objects, is an alias', () => {
    const known = new Set([...Object.keys(PLATFORM_ALIASES), ...Object.keys(ARCH_ALIASES)]);
    fc.assert(fc.property(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'any', 'ANY', '')), (text) => {
      fc.pre(!known.has(text.toLowerCase()));
      expect(platformFromAlias(text)).to.equal(undefined);
      expect(archFromAlias(text)).to.equal(undefined);
    }));
  });

  it('define platforms and arches apart: no alias names both', () => {
    for (const alias of Object.keys(PLATFORM_ALIASES)) expect(archFromAlias(alias), alias).to.equal(undefined);
  });
});

describe('files by type', () => {
  const file = (fileName: string, fileType: string, platform: 'macos' | 'linux' | 'any', arch: 'arm64' | 'x64' | 'universal' | 'any') => ({ fileName, fileType, platform, arch });

  it('match a file name ending in the extension, in any case, tar.gz included', () => {
    expect(hasExtension('App.AppImage', 'appimage')).to.equal(true);
    expect(hasExtension('app.tar.gz', 'tar.gz')).to.equal(true);
    expect(hasExtension('app.tar.gz', 'gz')).to.equal(true);
    expect(hasExtension('appdmg', 'dmg')).to.equal(false);
  });

  it('choose among MAIN and UPDATE files of that type, closest fit first, never a signature or a document', () => {
    const files = [
      file('App.dmg', 'MAIN', 'macos', 'arm64'),
      file('App-universal.zip', 'UPDATE', 'macos', 'universal'),
      file('App.zip.sig', 'SIGNATURE', 'macos', 'arm64'),
      file('App-arm64.zip', 'DOCUMENTATION', 'macos', 'arm64'),
    ];
    expect(selectFileOfType(files, { platform: 'macos', arch: 'arm64' }, 'zip')).to.deep.equal({ kind: 'match', file: files[1] });
    expect(selectFileOfType(files, { platform: 'macos', arch: 'arm64' }, 'DMG')).to.deep.equal({ kind: 'match', file: files[0] });
    expect(selectFileOfType(files, { platform: 'macos', arch: 'x64' }, 'dmg')).to.deep.equal({ kind: 'none' });
    expect(selectFileOfType(files, { platform: 'macos', arch: 'arm64' }, 'sig')).to.deep.equal({ kind: 'none' });
  });
});
