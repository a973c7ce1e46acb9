import type { Arch, FileTarget, Platform } from './platforms';

/**
 * What a visitor's browser runs on, as far as it can be told: the desktop platform (null on a phone or
 * an unknown system) and the arches it may be, most likely first. Browsers on Apple Silicon report an
 * Intel Mac in the User-Agent, so a Mac is both arm64 and x64 unless client hints say which.
 */
export interface VisitorPlatform {
  platform: Platform | null;
  archs: Arch[];
  /** Whether the arch is known (client hints) or guessed from the User-Agent. */
  certain: boolean;
}

/** Chromium's client hints (Sec-CH-UA-Platform, -Arch, -Bitness; navigator.userAgentData), when the browser gives them. */
export interface ClientHints {
  platform?: string;
  architecture?: string;
  bitness?: string;
}

const unquote = (value: string | undefined) => value?.replace(/^"|"$/g, '').trim() || undefined;

function platformOfHints(hint: string | undefined): Platform | null | undefined {
  switch (unquote(hint)?.toLowerCase()) {
    case 'windows': return 'windows';
    case 'macos': return 'macos';
    case 'linux': return 'linux';
    case undefined: case '': return undefined;
    default: return null; // Android, Chrome OS, iOS, Fuchsia: no desktop build of ours runs there.
  }
}

function archOfHints(architecture: string | undefined, bitness: string | undefined): Arch | undefined {
  const arch = unquote(architecture)?.toLowerCase();
  const bits = unquote(bitness);
  if (arch === 'arm') return bits === '32' ? 'armv7l' : 'arm64';
  if (arch === 'x86') return bits === '32' ? 'ia32' : 'x64';
  return undefined;
}

function platformOfUserAgent(userAgent: string): Platform | null {
  if (/Android|iPhone|iPad|iPod|CrOS/i.test(userAgent)) return null;
  if (/Windows NT|Win64|Windows/i.test(userAgent)) return 'windows';
  if (/Macintosh|Mac OS X/i.test(userAgent)) return 'macos';
  if (/Linux|X11|FreeBSD/i.test(userAgent)) return 'linux';
  return null;
}

function archsOfUserAgent(platform: Platform | null, userAgent: string): Arch[] {
  if (platform === 'macos') return ['arm64', 'x64'];
  if (/aarch64|arm64/i.test(userAgent)) return ['arm64'];
  if (/armv7|armv8l|armhf/i.test(userAgent)) return ['armv7l'];
  if (/x86_64|x64|amd64|Win64|WOW64/i.test(userAgent)) return ['x64'];
  if (/i[3-6]86/i.test(userAgent)) return ['ia32'];
  return ['x64'];
}

export function visitorPlatform(userAgent: string, hints: ClientHints = {}): VisitorPlatform {
  const hinted = platformOfHints(hints.platform);
  const platform = hinted === undefined ? platformOfUserAgent(userAgent) : hinted;
  if (platform === null) return { platform: null, archs: [], certain: hinted !== undefined };
  const arch = archOfHints(hints.architecture, hints.bitness);
  if (arch) return { platform, archs: [arch], certain: true };
  return { platform, archs: archsOfUserAgent(platform, userAgent), certain: false };
}

/**
 * The builds to offer as the visitor's primary download, from a release's installable files: the
 * visitor's platform, for each arch it may be (a universal macOS build covers both Mac arches once;
 * an `any` build fits every platform). Several when the arch is uncertain and the builds differ.
 */
export function primaryBuilds<F extends FileTarget>(files: readonly F[], visitor: VisitorPlatform): F[] {
  if (visitor.platform === null) return [];
  const chosen: F[] = [];
  for (const arch of visitor.archs) {
    const exact = files.find((file) => file.platform === visitor.platform && file.arch === arch);
    const universal = visitor.platform === 'macos' && (arch === 'x64' || arch === 'arm64')
      ? files.find((file) => file.platform === 'macos' && file.arch === 'universal') : undefined;
    const portable = files.find((file) => (file.platform === visitor.platform || file.platform === 'any') && file.arch === 'any');
    const pick = exact ?? universal ?? portable;
    if (pick && !chosen.includes(pick)) chosen.push(pick);
  }
  return chosen;
}
