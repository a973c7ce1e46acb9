import { expect } from 'chai';
import {
  Arch,
  ARCHS,
  DEFAULT_ARCH,
  DEFAULT_PLATFORM,
  fileMatchesRequest,
  FileTarget,
  fileTargetProblem,
  isArch,
  isPlatform,
  Platform,
  PLATFORMS,
  selectMainFile,
  TargetRequest,
} from '../../shared/releases/platforms';

interface NamedFile extends FileTarget {
  fileName: string;
}

const file = (fileName: string, platform: Platform, arch: Arch): NamedFile => ({ fileName, platform, arch });
const describeRequest = (request: TargetRequest) => `${request.platform ?? '-'}/${request.arch ?? '-'}`;

describe('platforms and architectures', () => {
  it('lists the values, any being the default of both', () => {
    expect(PLATFORMS).to.deep.equal(['windows', 'macos', 'linux', 'any']);
    expect(ARCHS).to.deep.equal(['x64', 'arm64', 'ia32', 'armv7l', 'universal', 'any']);
    expect([DEFAULT_PLATFORM, DEFAULT_ARCH]).to.deep.equal(['any', 'any']);
    expect(isPlatform('macos')).to.equal(true);
    expect(isArch('armv7l')).to.equal(true);
    for (const other of ['darwin', 'win32', 'Linux', 'toString', '']) expect(isPlatform(other), other).to.equal(false);
    for (const other of ['x86_64', 'aarch64', 'arm', 'X64', 'constructor', '']) expect(isArch(other), other).to.equal(false);
  });

  it('allows universal on macOS only', () => {
    expect(fileTargetProblem({ platform: 'macos', arch: 'universal' })).to.equal(null);
    for (const platform of ['windows', 'linux', 'any'] as const) {
      expect(fileTargetProblem({ platform, arch: 'universal' }), platform).to.match(/macos/);
    }
    for (const platform of PLATFORMS) {
      for (const arch of ARCHS.filter((a) => a !== 'universal')) expect(fileTargetProblem({ platform, arch })).to.equal(null);
    }
  });

  describe('matching: equal, any, or universal for a Mac', () => {
    const cases: Array<[FileTarget, TargetRequest, boolean]> = [
      [{ platform: 'windows', arch: 'x64' }, { platform: 'windows', arch: 'x64' }, true],
      [{ platform: 'windows', arch: 'x64' }, { platform: 'windows', arch: 'arm64' }, false],
      [{ platform: 'windows', arch: 'x64' }, { platform: 'linux', arch: 'x64' }, false],
      [{ platform: 'windows', arch: 'x64' }, {}, true],
      [{ platform: 'windows', arch: 'x64' }, { arch: 'x64' }, true],
      [{ platform: 'windows', arch: 'x64' }, { platform: 'windows' }, true],
      [{ platform: 'any', arch: 'any' }, { platform: 'linux', arch: 'armv7l' }, true],
      [{ platform: 'linux', arch: 'any' }, { platform: 'linux', arch: 'arm64' }, true],
      [{ platform: 'any', arch: 'arm64' }, { platform: 'windows', arch: 'arm64' }, true],
      [{ platform: 'any', arch: 'arm64' }, { platform: 'windows', arch: 'x64' }, false],
      [{ platform: 'macos', arch: 'universal' }, { platform: 'macos', arch: 'arm64' }, true],
      [{ platform: 'macos', arch: 'universal' }, { platform: 'macos', arch: 'x64' }, true],
      [{ platform: 'macos', arch: 'universal' }, { arch: 'arm64' }, true],
      [{ platform: 'macos', arch: 'universal' }, { platform: 'macos', arch: 'ia32' }, false],
      [{ platform: 'macos', arch: 'universal' }, { platform: 'windows', arch: 'x64' }, false],
      [{ platform: 'macos', arch: 'universal' }, { platform: 'macos', arch: 'universal' }, true],
      [{ platform: 'macos', arch: 'arm64' }, { platform: 'macos', arch: 'universal' }, false],
      // Selecting `any` asks for the platform-independent build itself.
      [{ platform: 'any', arch: 'any' }, { platform: 'any', arch: 'any' }, true],
      [{ platform: 'linux', arch: 'x64' }, { platform: 'any' }, false],
    ];
    for (const [target, request, matches] of cases) {
      it(`${target.platform}/${target.arch} ${matches ? 'matches' : 'does not match'} ${describeRequest(request)}`, () => {
        expect(fileMatchesRequest(target, request)).to.equal(matches);
      });
    }
  });

  describe('choosing among a version MAIN files', () => {
    const setup = file('setup-x64.exe', 'windows', 'x64');
    const setupArm = file('setup-arm64.exe', 'windows', 'arm64');
    const macUniversal = file('app-universal.zip', 'macos', 'universal');
    const macArm = file('app-arm64.zip', 'macos', 'arm64');
    const appImageArm = file('app-arm64.AppImage', 'linux', 'arm64');
    const portable = file('app.jar', 'any', 'any');

    const names = (selection: ReturnType<typeof selectMainFile<NamedFile>>) =>
      selection.kind === 'match' ? selection.file.fileName : selection.kind === 'ambiguous' ? selection.choices.map((f) => f.fileName) : null;

    const cases: Array<[string, NamedFile[], TargetRequest, 'match' | 'ambiguous' | 'none', string | string[] | null]> = [
      ['one file and no selector: that file (as before platforms)', [portable], {}, 'match', 'app.jar'],
      ['one file of another platform and no selector: that file', [setup], {}, 'match', 'setup-x64.exe'],
      ['no files', [], {}, 'none', null],
      ['several files and no selector', [setup, macUniversal, appImageArm], {}, 'ambiguous', ['setup-x64.exe', 'app-universal.zip', 'app-arm64.AppImage']],
      ['the platform decides', [setup, macUniversal, appImageArm], { platform: 'macos' }, 'match', 'app-universal.zip'],
      ['the platform does not decide between two arches', [setup, setupArm, macUniversal], { platform: 'windows' }, 'ambiguous', ['setup-x64.exe', 'setup-arm64.exe']],
      ['platform and arch decide', [setup, setupArm, macUniversal], { platform: 'windows', arch: 'arm64' }, 'match', 'setup-arm64.exe'],
      ['the arch alone decides', [setup, macArm, appImageArm], { arch: 'x64' }, 'match', 'setup-x64.exe'],
      ['the arch alone leaves two platforms', [setupArm, macArm, appImageArm], { arch: 'arm64' }, 'ambiguous', ['setup-arm64.exe', 'app-arm64.zip', 'app-arm64.AppImage']],
      ['nothing for the platform', [setup, macUniversal], { platform: 'linux' }, 'none', null],
      ['nothing for the arch', [setup, setupArm], { platform: 'windows', arch: 'ia32' }, 'none', null],
      ['the universal build for an Intel Mac', [setup, macUniversal], { platform: 'macos', arch: 'x64' }, 'match', 'app-universal.zip'],
      ['the arm64 build over the universal one for Apple Silicon', [macUniversal, macArm], { platform: 'macos', arch: 'arm64' }, 'match', 'app-arm64.zip'],
      ['the universal one for Intel when the other is arm64', [macUniversal, macArm], { platform: 'macos', arch: 'x64' }, 'match', 'app-universal.zip'],
      ['the platform build over the any build', [setup, portable], { platform: 'windows', arch: 'x64' }, 'match', 'setup-x64.exe'],
      ['the any build where the platform has none', [setup, portable], { platform: 'linux', arch: 'x64' }, 'match', 'app.jar'],
      ['the any build and a platform build, no selector', [setup, portable], {}, 'ambiguous', ['setup-x64.exe', 'app.jar']],
      ['closer on platform, further on arch: no single closest', [file('win-any.zip', 'windows', 'any'), file('any-x64.bin', 'any', 'x64')], { platform: 'windows', arch: 'x64' }, 'ambiguous', ['win-any.zip', 'any-x64.bin']],
      ['closer on both beats closer on one', [file('win-any.zip', 'windows', 'any'), file('any-x64.bin', 'any', 'x64'), setup], { platform: 'windows', arch: 'x64' }, 'match', 'setup-x64.exe'],
      ['the platform-independent build, asked for by name', [setup, portable], { platform: 'any', arch: 'any' }, 'match', 'app.jar'],
    ];
    for (const [title, files, request, kind, expected] of cases) {
      it(`${title}: ${describeRequest(request)} → ${kind}`, () => {
        const selection = selectMainFile(files, request);
        expect(selection.kind).to.equal(kind);
        expect(names(selection)).to.deep.equal(expected);
      });
    }

    it('a match always matches the request, and every choice does', () => {
      const all = [setup, setupArm, macUniversal, macArm, appImageArm, portable];
      const requests: TargetRequest[] = [{}];
      for (const platform of PLATFORMS) {
        requests.push({ platform });
        for (const arch of ARCHS) requests.push({ platform, arch }, { arch });
      }
      for (let mask = 1; mask < 1 << all.length; mask++) {
        const files = all.filter((_, i) => mask & (1 << i));
        for (const request of requests) {
          const selection = selectMainFile(files, request);
          const matching = files.filter((f) => fileMatchesRequest(f, request));
          if (selection.kind === 'none') expect(matching, describeRequest(request)).to.deep.equal([]);
          else if (selection.kind === 'match') expect(matching).to.include(selection.file);
          else {
            expect(selection.choices.length).to.be.at.least(2);
            for (const choice of selection.choices) expect(matching).to.include(choice);
          }
          if (matching.length === 1) expect(selection).to.deep.equal({ kind: 'match', file: matching[0] });
        }
      }
    });
  });
});
