import type { Arch } from '../releases/platforms';

/**
 * Packages' own architecture names, mapped to the service's: Debian's (dpkg-architecture) and rpm's.
 * A package for every architecture (`all`, `noarch`) maps to `any`. Names not listed have no arch of
 * ours, and a package that declares one is refused at upload.
 */
const DEBIAN_ARCHES: Readonly<Record<string, Arch>> = { amd64: 'x64', arm64: 'arm64', i386: 'ia32', armhf: 'armv7l', all: 'any' };
const RPM_ARCHES: Readonly<Record<string, Arch>> = {
  x86_64: 'x64', aarch64: 'arm64', i386: 'ia32', i486: 'ia32', i586: 'ia32', i686: 'ia32', armv7hl: 'armv7l', armv7l: 'armv7l', noarch: 'any',
};

export type PackageFormat = 'deb' | 'rpm';

export function archOfPackage(format: PackageFormat, packageArch: string): Arch | undefined {
  const table = format === 'deb' ? DEBIAN_ARCHES : RPM_ARCHES;
  return Object.hasOwn(table, packageArch) ? table[packageArch] : undefined;
}

/** Debian's name of one of our arches (for `binary-{arch}` indexes); undefined for `universal` and `any`. */
export function debianArchOf(arch: Arch): string | undefined {
  return Object.entries(DEBIAN_ARCHES).find(([, ours]) => ours === arch && ours !== 'any')?.[0];
}

/** The Debian architectures a repository serves indexes for, in Release's order. */
export const DEBIAN_INDEX_ARCHES = ['amd64', 'arm64', 'i386', 'armhf'] as const;

/** Which package format a file name says, from its extension; undefined for anything else. */
export function packageFormatOfName(fileName: string): PackageFormat | undefined {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.deb')) return 'deb';
  if (lower.endsWith('.rpm') && !lower.endsWith('.src.rpm')) return 'rpm';
  return undefined;
}
