import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { controlField } from '../../shared/packages/package-identity';
import { DEBIAN_INDEX_ARCHES } from '../../shared/packages/package-arches';
import type { DebPackageInfo } from '../../shared/store/models';
import type { ReleaseFile } from '../releases/release-catalog';

/**
 * apt's repository documents (Debian's repository format, wiki.debian.org/DebianRepository/Format):
 * one `Packages` per architecture of component `main`, each entry the package's own control
 * paragraph plus where the file is and its size and digests, and the `Release` that lists every index
 * with its size and SHA256.
 */

export const APT_COMPONENT = 'main';

/** Fields of a control paragraph the repository computes itself, never copied from the package. */
const COMPUTED_FIELDS = new Set(['filename', 'size', 'md5sum', 'sha1', 'sha256', 'sha512', 'description-md5']);

/** A `.deb` of an offered release, with the path its pool link has under the repository. */
export interface PoolEntry {
  file: ReleaseFile;
  info: DebPackageInfo;
  /** `pool/{version}/{fileName}`, relative to the repository's root. */
  poolPath: string;
}

export function poolPathOf(file: ReleaseFile): string {
  return `pool/${file.version}/${file.fileName}`;
}

/** The `Packages` index of one Debian architecture: its packages and those for every architecture (`all`). */
export function packagesIndex(entries: readonly PoolEntry[], debianArch: string): Buffer {
  const stanzas = entries
    .filter(({ info }) => {
      const arch = controlField(info.fields, 'Architecture');
      return arch === debianArch || arch === 'all';
    })
    .map(stanzaOf);
  return Buffer.from(stanzas.join('\n'), 'utf8');
}

function stanzaOf({ file, info, poolPath }: PoolEntry): string {
  const lines = info.fields.filter(([name]) => !COMPUTED_FIELDS.has(name.toLowerCase())).map(([name, value]) => `${name}: ${value}`);
  lines.push(`Filename: ${poolPath}`, `Size: ${file.fileSize}`);
  if (file.checksum) lines.push(`SHA256: ${file.checksum.replace(/^sha256:/, '')}`);
  if (file.sha512) lines.push(`SHA512: ${Buffer.from(file.sha512, 'base64').toString('hex')}`);
  return `${lines.join('\n')}\n`;
}

export interface IndexFile {
  /** Path under `dists/{suite}/`: `main/binary-amd64/Packages`. */
  path: string;
  bytes: Buffer;
}

/** Every index of a suite: per architecture `Packages` and `Packages.gz`. */
export function suiteIndexes(entries: readonly PoolEntry[]): IndexFile[] {
  return DEBIAN_INDEX_ARCHES.flatMap((arch) => {
    const packages = packagesIndex(entries, arch);
    const directory = `${APT_COMPONENT}/binary-${arch}`;
    return [{ path: `${directory}/Packages`, bytes: packages }, { path: `${directory}/Packages.gz`, bytes: gzipSync(packages, { level: 9 }) }];
  });
}

export interface ReleaseFacts {
  applicationId: string;
  /** The channel: the suite and the codename. */
  suite: string;
  date: Date;
  validUntil: Date;
}

/** The suite's `Release`: what it is, when it stops being valid, and every index with its size and SHA256. */
export function releaseFile(facts: ReleaseFacts, indexes: readonly IndexFile[]): Buffer {
  const sha256 = indexes.map(({ path, bytes }) => ` ${createHash('sha256').update(bytes).digest('hex')} ${String(bytes.length).padStart(8)} ${path}`);
  const lines = [
    `Origin: ${facts.applicationId}`,
    `Label: ${facts.applicationId}`,
    `Suite: ${facts.suite}`,
    `Codename: ${facts.suite}`,
    `Date: ${rfc2822(facts.date)}`,
    `Valid-Until: ${rfc2822(facts.validUntil)}`,
    `Architectures: ${DEBIAN_INDEX_ARCHES.join(' ')}`,
    `Components: ${APT_COMPONENT}`,
    // The indexes are also served under `{dir}/by-hash/SHA256/{sha256}`, the current and the previous suite's.
    'Acquire-By-Hash: yes',
    `Description: ${facts.applicationId}, channel ${facts.suite}`,
    'SHA256:',
    ...sha256,
  ];
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}

/** `Sat, 28 Nov 2026 01:00:00 UTC`, as Debian's archive writes dates. */
function rfc2822(date: Date): string {
  return date.toUTCString().replace(/GMT$/, 'UTC');
}
