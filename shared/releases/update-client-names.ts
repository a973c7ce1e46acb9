import type { Arch, Platform } from './platforms';

/**
 * How the update clients name channels, platforms and architectures, mapped to ours. Each mapping
 * follows what the client sends, read from its source; a name it never sends maps to null.
 */

export type OperatingSystem = Exclude<Platform, 'any'>;

export interface ElectronChannelFile {
  channel: string;
  platform: OperatingSystem;
  /**
   * Set only for Linux, whose clients ask per arch. Windows and macOS clients ask one file for
   * every arch and pick from its list: NSIS by `process.arch` in the file name, MacUpdater by
   * `arm64` in it (anything else, universal included, is offered to both kinds of Mac).
   */
  arch: Arch | null;
}

/** electron-updater's stable channel name; `channelNameProblem` keeps it out of CHANNELS. */
const ELECTRON_STABLE = 'latest';

/** electron-updater appends `-${process.arch}` on Linux except for x64; builder writes armv7l builds as `-arm`. */
const LINUX_ARCH_SUFFIXES: ReadonlyArray<[string, Arch]> = [['', 'x64'], ['-arm64', 'arm64'], ['-ia32', 'ia32'], ['-arm', 'armv7l']];

/**
 * What an electron-updater client (generic provider) asks for with a channel-file name:
 * `Provider.getCustomChannelName` gives `<channel>` on Windows (no platform or arch, for
 * historical reasons), `<channel>-mac` on macOS and `<channel>-linux[-<process.arch>]` on Linux,
 * and `getChannelFilename` adds `.yml`. `latest` (the default) is the most stable channel, which
 * a client may also ask for by its own name. Null for a channel not configured, an arch we do not
 * build for (`ppc64`, `s390x`, ...) or any other name.
 */
export function parseElectronChannelFile(fileName: string, channels: readonly string[]): ElectronChannelFile | null {
  const stem = /^(.+)\.yml$/.exec(fileName)?.[1];
  if (stem === undefined) return null;
  let name = stem;
  let platform: OperatingSystem = 'windows';
  let arch: Arch | null = null;
  // Channel names cannot end in -mac or hold -linux (channelNameProblem), so the first -linux is the suffix.
  const linux = /^(.+?)-linux((?:-.+)?)$/.exec(stem);
  if (linux) {
    const suffix = LINUX_ARCH_SUFFIXES.find(([text]) => text === linux[2]);
    if (!suffix) return null;
    [name, platform, arch] = [linux[1], 'linux', suffix[1]];
  } else if (stem.endsWith('-mac')) {
    [name, platform] = [stem.slice(0, -'-mac'.length), 'macos'];
  }
  const channel = name === ELECTRON_STABLE ? channels[0] : name;
  return channels.includes(channel) ? { channel, platform, arch } : null;
}

/** The channel-file name an electron-updater client on `platform`/`arch` asks for; null for a Linux arch it has no name for. */
export function electronChannelFileName(channels: readonly string[], channel: string, platform: OperatingSystem, arch: Arch): string | null {
  const name = channel === channels[0] ? ELECTRON_STABLE : channel;
  if (platform === 'windows') return `${name}.yml`;
  if (platform === 'macos') return `${name}-mac.yml`;
  const suffix = LINUX_ARCH_SUFFIXES.find(([, ours]) => ours === arch);
  return suffix ? `${name}-linux${suffix[0]}.yml` : null;
}

/** Tauri's `{{target}}`: the OS as tauri-plugin-updater's `updater_os()` names it. */
const TAURI_TARGETS: Readonly<Record<string, OperatingSystem>> = { linux: 'linux', darwin: 'macos', windows: 'windows' };
/** Tauri's `{{arch}}`: Rust's target_arch as `get_updater_arch()` names it. */
const TAURI_ARCHS: Readonly<Record<string, Arch>> = { x86_64: 'x64', aarch64: 'arm64', i686: 'ia32', armv7: 'armv7l' };

export function platformOfTauriTarget(target: string): OperatingSystem | null {
  return Object.hasOwn(TAURI_TARGETS, target) ? TAURI_TARGETS[target] : null;
}

export function archOfTauriArch(arch: string): Arch | null {
  return Object.hasOwn(TAURI_ARCHS, arch) ? TAURI_ARCHS[arch] : null;
}

/**
 * Squirrel.Mac's `arch` query parameter. Squirrel sends only the feed URL the app set, so the
 * value is what the app puts there from Node's `process.arch`: `x64` or `arm64` on a Mac.
 */
export function archOfSquirrelMacArch(arch: string): Arch | null {
  return arch === 'x64' || arch === 'arm64' ? arch : null;
}
