import type { FileRecord, Version } from '../../../shared/store/models';
import { releaseNotesHtmlOf } from '../../../shared/contract/versions';
import type { PackageFile, PackageUpdate } from './package-updates';

/**
 * What Squirrel.Windows and Velopack read, shaped from the packages a feed picked: the RELEASES
 * text (Squirrel.Windows, and the legacy file Velopack's packager still writes) and Velopack's
 * `releases.{channel}.json`. Pure functions of records.
 */

/** A package as a RELEASES line needs it. */
export type ReleasesEntry = Pick<FileRecord, 'fileName' | 'fileSize'> & { sha1: string };

/**
 * RELEASES: one `SHA1 URL size` line per package, the form ReleaseEntry.cs parses
 * (`^([0-9a-fA-F]{40})\s+(\S+)\s+(\d+)[\r]*$`), the SHA-1 in capitals as Squirrel writes it. The
 * URLs are absolute (`urlOf`): Squirrel resolves a bare name against the feed URL, and a link of our
 * own keeps the caller's path token. No `# NN%` staging suffix: the service has already decided the
 * staged rollout for this customer.
 */
export function releasesText(entries: readonly ReleasesEntry[], urlOf: (fileName: string) => string): string {
  return entries.map((entry) => `${entry.sha1.toUpperCase()} ${urlOf(entry.fileName)} ${entry.fileSize}`).join('\n');
}

/** A file as a RELEASES line, once it has its SHA-1 (null before the digest backfill reaches it). */
export const releasesEntry = (file: FileRecord): ReleasesEntry | null =>
  (file.sha1 ? { fileName: file.fileName, fileSize: file.fileSize, sha1: file.sha1 } : null);

/** The packages of an update in the order Squirrel writes them: the deltas oldest first, then the full package. */
export const updateEntries = (update: PackageUpdate): readonly PackageFile[] => [...update.deltas, update.full];

/** A package's link under a feed's base: the name escaped, so the client's URL parser gives back exactly the name. */
export const packageUrl = (feedBase: string, fileName: string): string => `${feedBase}/${encodeURIComponent(fileName)}`;

/** One asset of Velopack's feed (VelopackAsset in its manager.rs). */
export interface VelopackAsset {
  PackageId: string;
  Version: string;
  Type: 'Full' | 'Delta';
  FileName: string;
  SHA1: string;
  SHA256: string;
  Size: number;
  NotesMarkdown: string;
  NotesHtml: string;
}

/** Velopack's `releases.{channel}.json` (VelopackAssetFeed). */
export interface VelopackAssetFeed {
  Assets: VelopackAsset[];
}

/**
 * Velopack's feed. `FileName` is the bare name: the client downloads `{feed URL}/{FileName}` and
 * keeps the file under that name, so the package route sits beside the feed. `Version` is the
 * release's (Velopack compares them as SemVer; a leading `v` dropped). `SHA256` is the hex checksum
 * the client checks before SHA-1 when present. Notes are the version's Markdown and its sanitized
 * HTML.
 */
export function velopackFeed(packages: readonly PackageFile[]): VelopackAssetFeed {
  return {
    Assets: packages.map(({ release, file, name }) => ({
      PackageId: name.packageId,
      Version: release.version.version.replace(/^[vV]/, ''),
      Type: name.kind === 'full' ? 'Full' : 'Delta',
      FileName: file.fileName,
      SHA1: file.sha1.toUpperCase(),
      SHA256: (file.checksum ?? '').replace(/^sha256:/, ''),
      Size: file.fileSize,
      NotesMarkdown: release.version.releaseNotes ?? '',
      NotesHtml: notesHtmlOf(release.version),
    })),
  };
}

/** A version's notes as sanitized HTML; empty for none. */
const notesHtmlOf = (version: Version): string => releaseNotesHtmlOf(version) ?? '';
