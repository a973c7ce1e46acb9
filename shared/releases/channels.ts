/**
 * Release channels, configured by CHANNELS from most to least stable. A version belongs to one
 * channel; a client asking for a channel sees that channel and every more stable one (asking for
 * `beta` offers `stable`, `rc` and `beta` builds), as Keygen and electron-release-server do.
 */

export const DEFAULT_CHANNELS = ['stable', 'rc', 'beta', 'alpha', 'dev'];

/** The channel of a version that names none. */
export const defaultChannel = (channels: readonly string[]): string => channels[0];

const CHANNEL_NAME = /^[a-z0-9_-]{1,32}$/;
/** What electron-updater appends to a channel for macOS and Linux (channel-file names). */
const ELECTRON_PLATFORM_SUFFIX = /-(?:mac|linux)$|-linux-/;
/**
 * The TUF specification's top-level roles: an application's TUF repository delegates one targets role
 * per channel, named after it, and a delegated role must not share a top-level role's name (nor its
 * metadata file, `{name}.json`).
 */
const TUF_ROLE_NAMES: readonly string[] = ['root', 'timestamp', 'snapshot', 'targets'];

/**
 * Why `name` cannot be a configured channel, or null when it can. Besides the character rule, the
 * name must keep electron-updater's channel files unambiguous: `latest` is its name for the most
 * stable channel, and a `-mac` / `-linux` / `-linux-<arch>` ending is what it appends per platform;
 * and it must not be a TUF top-level role's name.
 */
export function channelNameProblem(name: string): string | null {
  if (!CHANNEL_NAME.test(name)) return 'is not 1-32 lowercase letters, digits, _ and -';
  if (name === 'latest') return 'is reserved: electron-updater calls the most stable channel "latest"';
  if (TUF_ROLE_NAMES.includes(name)) return `is reserved: TUF names its top-level role "${name}", and a channel is a delegated TUF role`;
  if (ELECTRON_PLATFORM_SUFFIX.test(name)) return 'ends like an electron-updater platform suffix (-mac, -linux, -linux-<arch>)';
  return null;
}

export function isChannel(channels: readonly string[], name: string): boolean {
  return channels.includes(name);
}

/**
 * Whether a version in `versionChannel` is offered to a client asking for `requested`. A version
 * left in a channel no longer configured counts as the least stable: only clients of the last
 * channel see it, so removing a channel from CHANNELS never widens who gets its builds.
 */
export function channelOffers(channels: readonly string[], requested: string, versionChannel: string): boolean {
  const requestedRank = channels.indexOf(requested);
  if (requestedRank === -1) return false;
  const versionRank = channels.indexOf(versionChannel);
  return versionRank === -1 ? requestedRank === channels.length - 1 : versionRank <= requestedRank;
}
