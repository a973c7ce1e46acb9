import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { XMLBuilder } from 'fast-xml-parser';
import type { RpmDependency, RpmPackageInfo } from '../../shared/store/models';
import type { ReleaseFile } from '../releases/release-catalog';

/**
 * dnf's repository metadata (createrepo_c's format): `repodata/primary.xml.gz` (each package's
 * identity, digest, size, location, dependencies), `filelists.xml.gz` (every file), `other.xml.gz`
 * (changelogs), and `repomd.xml`, which lists the three with their digests, sizes and timestamps.
 * Built by fast-xml-parser's XMLBuilder, which escapes every text and attribute.
 */

const COMMON = 'http://linux.duke.edu/metadata/common';
const RPM = 'http://linux.duke.edu/metadata/rpm';
const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', suppressEmptyNode: true });
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const xmlText = (text: string): string => text.replace(NOT_XML, '');

/** An `.rpm` of an offered release, with where its link is under the repository. */
export interface RpmEntry {
  file: ReleaseFile;
  info: RpmPackageInfo;
  /** `packages/{version}/{fileName}`, relative to the repository's root. */
  location: string;
}

export function rpmLocationOf(file: ReleaseFile): string {
  return `packages/${file.version}/${file.fileName}`;
}

const pkgid = (entry: RpmEntry): string => (entry.file.checksum ?? '').replace(/^sha256:/, '');
const versionOf = (info: RpmPackageInfo) => ({ '@_epoch': String(info.epoch), '@_ver': xmlText(info.version), '@_rel': xmlText(info.release) });

function dependencies(list: readonly RpmDependency[], withPre: boolean) {
  if (list.length === 0) return undefined;
  return {
    'rpm:entry': list.map((dependency) => ({
      '@_name': xmlText(dependency.name),
      ...(dependency.flags ? { '@_flags': dependency.flags } : {}),
      ...(dependency.epoch !== null ? { '@_epoch': dependency.epoch } : {}),
      ...(dependency.version !== null ? { '@_ver': xmlText(dependency.version) } : {}),
      ...(dependency.release !== null ? { '@_rel': xmlText(dependency.release) } : {}),
      ...(withPre && dependency.pre ? { '@_pre': '1' } : {}),
    })),
  };
}

/** Files primary.xml lists (what dependencies on paths name), as createrepo picks them. */
const PRIMARY_FILE = /^(\/etc\/|\/usr\/lib\/sendmail$)|bin\//;

export function primaryXml(entries: readonly RpmEntry[]): Buffer {
  const packages = entries.map((entry) => {
    const { info, file } = entry;
    return {
      '@_type': 'rpm',
      name: xmlText(info.name),
      arch: xmlText(info.arch),
      version: versionOf(info),
      checksum: { '@_type': 'sha256', '@_pkgid': 'YES', '#text': pkgid(entry) },
      summary: xmlText(info.summary),
      description: xmlText(info.description),
      packager: info.packager === null ? undefined : xmlText(info.packager),
      url: info.url === null ? undefined : xmlText(info.url),
      time: { '@_file': String(Math.floor(file.createdAt.getTime() / 1000)), '@_build': String(info.buildTime) },
      size: { '@_package': String(file.fileSize), '@_installed': String(info.installedSize), '@_archive': '0' },
      location: { '@_href': xmlText(entry.location) },
      format: {
        'rpm:license': info.license === null ? undefined : xmlText(info.license),
        'rpm:vendor': info.vendor === null ? undefined : xmlText(info.vendor),
        'rpm:group': info.group === null ? undefined : xmlText(info.group),
        'rpm:buildhost': info.buildHost === null ? undefined : xmlText(info.buildHost),
        'rpm:sourcerpm': info.sourceRpm === null ? undefined : xmlText(info.sourceRpm),
        'rpm:header-range': { '@_start': String(info.headerStart), '@_end': String(info.headerEnd) },
        'rpm:provides': dependencies(info.provides, false),
        'rpm:requires': dependencies(info.requires, true),
        'rpm:conflicts': dependencies(info.conflicts, false),
        'rpm:obsoletes': dependencies(info.obsoletes, false),
        file: info.files.filter((path) => PRIMARY_FILE.test(path)).map(xmlText),
      },
    };
  });
  return document({ metadata: { '@_xmlns': COMMON, '@_xmlns:rpm': RPM, '@_packages': String(entries.length), package: packages } });
}

export function filelistsXml(entries: readonly RpmEntry[]): Buffer {
  const packages = entries.map((entry) => ({
    '@_pkgid': pkgid(entry), '@_name': xmlText(entry.info.name), '@_arch': xmlText(entry.info.arch),
    version: versionOf(entry.info),
    file: entry.info.files.map(xmlText),
  }));
  return document({ filelists: { '@_xmlns': 'http://linux.duke.edu/metadata/filelists', '@_packages': String(entries.length), package: packages } });
}

export function otherXml(entries: readonly RpmEntry[]): Buffer {
  const packages = entries.map((entry) => ({
    '@_pkgid': pkgid(entry), '@_name': xmlText(entry.info.name), '@_arch': xmlText(entry.info.arch),
    version: versionOf(entry.info),
    changelog: entry.info.changelog.map((change) => ({ '@_author': xmlText(change.author), '@_date': String(change.date), '#text': xmlText(change.text) })),
  }));
  return document({ otherdata: { '@_xmlns': 'http://linux.duke.edu/metadata/other', '@_packages': String(entries.length), package: packages } });
}

function document(root: Record<string, unknown>): Buffer {
  return Buffer.from(builder.build({ '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' }, ...root }));
}

export interface RepodataFile {
  /** primary, filelists, other. */
  type: string;
  /** `repodata/{type}.xml.gz`. */
  path: string;
  bytes: Buffer;
  openBytes: Buffer;
}

/** The three metadata files, gzipped. */
export function repodataFiles(entries: readonly RpmEntry[]): RepodataFile[] {
  return ([['primary', primaryXml], ['filelists', filelistsXml], ['other', otherXml]] as const).map(([type, build]) => {
    const openBytes = build(entries);
    return { type, path: `repodata/${type}.xml.gz`, bytes: gzipSync(openBytes, { level: 9 }), openBytes };
  });
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** `repomd.xml`: every metadata file with its digest and size, compressed and open, and when it was made. */
export function repomdXml(files: readonly RepodataFile[], at: Date): Buffer {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  return document({
    repomd: {
      '@_xmlns': 'http://linux.duke.edu/metadata/repo',
      '@_xmlns:rpm': RPM,
      revision: timestamp,
      data: files.map((file) => ({
        '@_type': file.type,
        checksum: { '@_type': 'sha256', '#text': sha256(file.bytes) },
        'open-checksum': { '@_type': 'sha256', '#text': sha256(file.openBytes) },
        location: { '@_href': file.path },
        timestamp,
        size: String(file.bytes.length),
        'open-size': String(file.openBytes.length),
      })),
    },
  });
}
