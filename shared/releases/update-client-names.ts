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

/**
 * Squirrel.Windows' `arch` query parameter: `Environment.Is64BitOperatingSystem ? "amd64" : "x86"`
 * (UpdateManager.CheckForUpdates.cs). It names the operating system, not the app: a 32-bit app on
 * 64-bit Windows sends amd64, and can run the x64 build.
 */
const SQUIRREL_WINDOWS_ARCHS: Readonly<Record<string, Arch>> = { amd64: 'x64', x86: 'ia32' };

export function archOfSquirrelWindowsArch(arch: string): Arch | null {
  return Object.hasOwn(SQUIRREL_WINDOWS_ARCHS, arch) ? SQUIRREL_WINDOWS_ARCHS[arch] : null;
}

/** Velopack's default channel on each OS (its constants.rs `DEFAULT_CHANNEL_NAME`), which its packager also writes into names. */
const VELOPACK_OS_CHANNELS: Readonly<Record<string, OperatingSystem>> = { win: 'windows', osx: 'macos', linux: 'linux' };

/** What a Velopack channel name asks for: one of our channels, and the OS when the name gives it. */
export interface VelopackChannel {
  channel: string;
  platform: OperatingSystem | null;
}

/**
 * A Velopack client's channel (`releases.{channel}.json`): the one it was packed with, by default
 * its OS's `win`, `osx` or `linux` (our most stable channel for that OS); one of our channels by
 * name (any OS: Velopack wants channel names unique across OSes); or `<channel>-<os>` for both.
 * Null for any other name.
 */
/**
 * The names parseVelopackChannel takes, as one pattern for the API description (channel names are
 * `a-z 0-9 _ -`: nothing to escape).
 */
export function velopackChannelPattern(channels: readonly string[]): string {
  const systems = Object.keys(VELOPACK_OS_CHANNELS).join('|');
  return `^(?:${systems}|(?:${channels.join('|')})(?:-(?:${systems}))?)$`;
}

export function parseVelopackChannel(name: string, channels: readonly string[]): VelopackChannel | null {
  if (Object.hasOwn(VELOPACK_OS_CHANNELS, name)) return { channel: channels[0], platform: VELOPACK_OS_CHANNELS[name] };
  if (channels.includes(name)) return { channel: name, platform: null };
  const split = /^(.+)-(win|osx|linux)$/.exec(name);
  return split && channels.includes(split[1]) ? { channel: split[1], platform: VELOPACK_OS_CHANNELS[split[2]] } : null;
}
