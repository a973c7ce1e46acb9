import type { FileType } from './file-types';
import type { Arch, Platform } from './platforms';

/**
 * What a build file is, guessed from its name as electron-builder (and Tauri) name them, so a person
 * dropping files on a version only corrects the odd guess: `App-1.2.3-arm64.dmg` is a macOS arm64
 * installer, `App-1.2.3-arm64-mac.zip` the zip Mac update clients install, `App Setup 1.2.3.exe` a
 * Windows installer, `app_1.2.3_amd64.deb` a Linux x64 package. A `.blockmap` (differential
 * updates) and a `.sig` (an update signature) take the target of the file they describe.
 */
export interface GuessedTarget {
  platform: Platform;
  arch: Arch;
  fileType: FileType;
}

/** Architecture words as builders write them, in file names, to ours. */
const ARCH_WORDS: ReadonlyArray<[RegExp, Arch]> = [
  [/^(arm64|aarch64)$/, 'arm64'],
  [/^(x64|x86_64|amd64)$/, 'x64'],
  [/^(ia32|i386|i686|x86|win32)$/, 'ia32'],
  [/^(armv7l|armv7|armhf|arm)$/, 'armv7l'],
  [/^universal$/, 'universal'],
];

/** Extensions that name the platform by themselves; the longest that fits wins. */
const PLATFORM_EXTENSIONS: ReadonlyArray<[string, Platform]> = [
  ['.app.tar.gz', 'macos'], ['.dmg', 'macos'], ['.pkg', 'macos'],
  ['.exe', 'windows'], ['.msi', 'windows'], ['.msix', 'windows'], ['.appx', 'windows'], ['.nupkg', 'windows'],
  ['.appimage', 'linux'], ['.deb', 'linux'], ['.rpm', 'linux'], ['.snap', 'linux'], ['.flatpak', 'linux'], ['.pacman', 'linux'],
];

const PLATFORM_WORDS: ReadonlyArray<[RegExp, Platform]> = [
  [/^(mac|macos|osx|darwin)$/, 'macos'],
  [/^(win|windows)$/, 'windows'],
  [/^linux$/, 'linux'],
];

const DOCUMENT_EXTENSIONS = ['.txt', '.md', '.pdf', '.html'];

/** The words of a file name: split at -, _, space and dot, lower case. */
function wordsOf(name: string): string[] {
  // x86_64 holds a separator: kept as one word.
  return name.toLowerCase().replace(/x86[-_]64/g, 'x86_64').split(/[-. ]+|(?<!x86)_/).filter(Boolean);
}

function archOf(words: readonly string[]): Arch | null {
  for (const word of words) {
    const found = ARCH_WORDS.find(([pattern]) => pattern.test(word));
    if (found) return found[1];
  }
  return null;
}

function platformOf(lowerName: string, words: readonly string[]): Platform | null {
  const byExtension = PLATFORM_EXTENSIONS.find(([extension]) => lowerName.endsWith(extension));
  if (byExtension) return byExtension[1];
  for (const word of words) {
    const found = PLATFORM_WORDS.find(([pattern]) => pattern.test(word));
    if (found) return found[1];
  }
  return null;
}

export function guessFileTarget(fileName: string): GuessedTarget {
  const lower = fileName.toLowerCase();
  for (const [suffix, fileType] of [['.blockmap', 'DEPENDENCY'], ['.sig', 'SIGNATURE']] as const) {
    if (lower.endsWith(suffix) && lower.length > suffix.length) {
      return { ...guessFileTarget(fileName.slice(0, -suffix.length)), fileType };
    }
  }
  if (DOCUMENT_EXTENSIONS.some((extension) => lower.endsWith(extension))) return { platform: 'any', arch: 'any', fileType: 'DOCUMENTATION' };
  if (lower.endsWith('.yml') || lower.endsWith('.yaml') || lower.endsWith('.json')) return { platform: 'any', arch: 'any', fileType: 'OTHER' };
  const words = wordsOf(fileName.replace(/\.[^.]+$/, ''));
  const platform = platformOf(lower, words);
  const arch = archOf(words);
  // A universal build is a macOS build whatever its extension (a universal .zip).
  if (platform === null && arch !== 'universal') return { platform: 'any', arch: arch ?? 'any', fileType: 'MAIN' };
  // electron-builder leaves x64, its default arch, out of the name.
  const target = { platform: platform ?? 'macos', arch: arch ?? 'x64' };
  if (target.platform === 'macos' && lower.endsWith('.zip')) return { ...target, fileType: 'UPDATE' };
  if (platform === 'windows' && lower.endsWith('.nupkg')) return { ...target, fileType: 'OTHER' };
  return { ...target, fileType: 'MAIN' };
}
