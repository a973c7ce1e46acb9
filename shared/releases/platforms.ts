/**
 * What a file runs on, and which of a version's MAIN files answers a request. A file carries one
 * platform and one arch; `any` means it does not depend on that (a script, a portable archive) and
 * `universal` is a macOS build holding both x64 and arm64.
 */

export const PLATFORMS = ['windows', 'macos', 'linux', 'any'] as const;
export type Platform = (typeof PLATFORMS)[number];

export const ARCHS = ['x64', 'arm64', 'ia32', 'armv7l', 'universal', 'any'] as const;
export type Arch = (typeof ARCHS)[number];

/** What a file that says nothing runs on: files stored before platforms existed included. */
export const DEFAULT_PLATFORM: Platform = 'any';
export const DEFAULT_ARCH: Arch = 'any';

export interface FileTarget {
  platform: Platform;
  arch: Arch;
}

/** A request's selectors; an absent one selects nothing. */
export interface TargetRequest {
  platform?: Platform;
  arch?: Arch;
}

export const isPlatform = (value: string): value is Platform => (PLATFORMS as readonly string[]).includes(value);
export const isArch = (value: string): value is Arch => (ARCHS as readonly string[]).includes(value);

/** The one arch that goes with one platform only: a universal build is a macOS build. */
export const UNIVERSAL_BUILD = { arch: 'universal', platform: 'macos' } as const satisfies FileTarget;

/** Why a file cannot carry this platform and arch, or null when it can. */
export function fileTargetProblem(target: FileTarget): string | null {
  return target.arch === UNIVERSAL_BUILD.arch && target.platform !== UNIVERSAL_BUILD.platform
    ? `arch ${UNIVERSAL_BUILD.arch} is a macOS build: platform must be ${UNIVERSAL_BUILD.platform}` : null;
}

/**
 * How closely a file fits one selector: 2 exactly, 1 as a universal macOS build for x64 or arm64,
 * 0 as `any` (or when the request does not select), -1 not at all.
 */
function platformFit(file: FileTarget, wanted: Platform | undefined): number {
  if (wanted === undefined) return 0;
  if (file.platform === wanted) return 2;
  return file.platform === 'any' ? 0 : -1;
}

function archFit(file: FileTarget, wanted: Arch | undefined): number {
  if (wanted === undefined) return 0;
  if (file.arch === wanted) return 2;
  if (file.arch === 'universal' && file.platform === 'macos' && (wanted === 'x64' || wanted === 'arm64')) return 1;
  return file.arch === 'any' ? 0 : -1;
}

/** A file matches when each of its platform and arch equals the request's, is `any`, or is universal for a Mac's x64/arm64. */
export function fileMatchesRequest(file: FileTarget, request: TargetRequest): boolean {
  return platformFit(file, request.platform) >= 0 && archFit(file, request.arch) >= 0;
}

export type MainFileSelection<F extends FileTarget> =
  | { kind: 'match'; file: F }
  | { kind: 'ambiguous'; choices: F[] }
  | { kind: 'none' };

/**
 * The MAIN file of one version that answers `request`. Among matching files the closest fit wins:
 * the Windows x64 build over an `any` one for `windows`/`x64`, an arm64 Mac build over the universal
 * one for `arm64`. When no single file fits at least as closely as every other in both platform and
 * arch (several files and no selector that decides between them), the answer is `ambiguous` with
 * the closest fits as the choices, so the client can be told what to select.
 */
export function selectMainFile<F extends FileTarget>(files: readonly F[], request: TargetRequest): MainFileSelection<F> {
  const fits = files
    .map((file) => ({ file, platform: platformFit(file, request.platform), arch: archFit(file, request.arch) }))
    .filter((fit) => fit.platform >= 0 && fit.arch >= 0);
  if (fits.length === 0) return { kind: 'none' };
  const dominated = (fit: (typeof fits)[number]) => fits.some((other) =>
    other !== fit && other.platform >= fit.platform && other.arch >= fit.arch && (other.platform > fit.platform || other.arch > fit.arch));
  const closest = fits.filter((fit) => !dominated(fit)).map((fit) => fit.file);
  return closest.length === 1 ? { kind: 'match', file: closest[0] } : { kind: 'ambiguous', choices: closest };
}

/**
 * What people and tools call a platform or arch in a link (`/latest/app/darwin/aarch64`), mapped
 * to the stored names. Defined once: the latest links read them, and the portal and the CLI may.
 * Lookups are case-insensitive; each stored name is its own alias. `any` is what a file says when it
 * fits every target, not something a link asks for, so it has no alias.
 */
export const PLATFORM_ALIASES: Readonly<Record<string, Exclude<Platform, 'any'>>> = Object.freeze({
  macos: 'macos', mac: 'macos', darwin: 'macos', osx: 'macos',
  windows: 'windows', win: 'windows', win32: 'windows', win64: 'windows',
  linux: 'linux',
});

export const ARCH_ALIASES: Readonly<Record<string, Exclude<Arch, 'any'>>> = Object.freeze({
  x64: 'x64', amd64: 'x64', x86_64: 'x64', 'x86-64': 'x64',
  arm64: 'arm64', aarch64: 'arm64',
  ia32: 'ia32', x86: 'ia32', i386: 'ia32', i686: 'ia32',
  armv7l: 'armv7l', armv7: 'armv7l', armhf: 'armv7l', arm: 'armv7l',
  universal: 'universal',
});

const ALIASED_PLATFORMS = new Map(Object.entries(PLATFORM_ALIASES));
const ALIASED_ARCHS = new Map(Object.entries(ARCH_ALIASES));

/** The stored platform an alias names (any case), or undefined. */
export const platformFromAlias = (alias: string): Exclude<Platform, 'any'> | undefined => ALIASED_PLATFORMS.get(alias.toLowerCase());
/** The stored arch an alias names (any case), or undefined. */
export const archFromAlias = (alias: string): Exclude<Arch, 'any'> | undefined => ALIASED_ARCHS.get(alias.toLowerCase());

/** Whether a file name ends in `.<extension>`, in any case (`App.AppImage` has `appimage`, `app.tar.gz` has `tar.gz` and `gz`). */
export function hasExtension(fileName: string, extension: string): boolean {
  return fileName.toLowerCase().endsWith(`.${extension.toLowerCase()}`);
}

/** What a download by file type chooses among: a version's installers (MAIN) and the archives beside them (UPDATE, the macOS `.zip`). */
export interface DownloadCandidate extends FileTarget {
  fileType: string;
  fileName: string;
}

const DOWNLOADABLE_TYPES: ReadonlySet<string> = new Set(['MAIN', 'UPDATE']);

/**
 * The file a link naming a file type (`.../mac/arm64.zip`) answers among one version's files: its
 * MAIN and UPDATE files whose name ends in that extension, closest fit first as for MAIN files.
 */
export function selectFileOfType<F extends DownloadCandidate>(files: readonly F[], request: TargetRequest, extension: string): MainFileSelection<F> {
  return selectMainFile(files.filter((file) => DOWNLOADABLE_TYPES.has(file.fileType) && hasExtension(file.fileName, extension)), request);
}
