import { stringify } from 'yaml';
import type { FileRecord, Version } from '../../shared/store/models';

/**
 * What each update client reads, shaped from a release: electron-updater's channel file (YAML), the
 * Tauri updater's dynamic-server answer and Squirrel.Mac's answer (JSON). Pure functions of records.
 */

/** A file as the feeds serve it: its SHA-512 is known (files without one are not served until the digest backfill reaches them). */
export type DigestedFile = FileRecord & { sha512: string };

export const hasSha512 = <F extends FileRecord>(file: F): file is F & DigestedFile => typeof file.sha512 === 'string' && file.sha512.length > 0;

/**
 * A file's URL relative to the electron feed's base: `{version}/{fileName}`, each escaped, so the
 * client's `new URL(url, base)` lands on the feed's file route whatever the names hold (a `+` in a
 * version would otherwise read as a space).
 */
export const electronFileUrl = (file: FileRecord): string => `${encodeURIComponent(file.version)}/${encodeURIComponent(file.fileName)}`;

/**
 * electron-updater's UpdateInfo, as electron-builder writes `latest.yml`: `files` with url, sha512
 * and size (the client picks one by extension and arch), and the first file again as the legacy
 * `path` and `sha512`. Written as YAML 1.1, the schema js-yaml reads it with, so a date-like string
 * stays a string. No `stagingPercentage`: the staged rollout is decided here, per customer.
 */
export function electronUpdateInfo(version: Version, files: readonly DigestedFile[]): string {
  const [first] = files;
  const info: Record<string, unknown> = {
    version: version.version,
    files: files.map((file) => ({ url: electronFileUrl(file), sha512: file.sha512, size: file.fileSize })),
    path: electronFileUrl(first),
    sha512: first.sha512,
    releaseDate: (version.publishedAt ?? version.createdAt).toISOString(),
  };
  if (version.releaseNotes !== null) info.releaseNotes = version.releaseNotes;
  return stringify(info, { version: '1.1', lineWidth: 0 });
}

/** Tauri's dynamic-server answer: `signature` is the content of the `.sig` file `tauri signer sign` wrote. */
export interface TauriUpdateAnswer {
  version: string;
  url: string;
  signature: string;
  notes: string;
  pub_date: string;
}

export function tauriUpdateAnswer(version: Version, url: string, signature: string): TauriUpdateAnswer {
  return { version: version.version, url, signature, notes: version.releaseNotes ?? '', pub_date: feedDate(version) };
}

/** Squirrel.Mac's answer (SQRLUpdate): the zip's URL, the release's name and notes, and its date. */
export interface SquirrelUpdateAnswer {
  url: string;
  name: string;
  notes: string;
  pub_date: string;
}

export function squirrelUpdateAnswer(version: Version, url: string): SquirrelUpdateAnswer {
  return { url, name: version.version, notes: version.releaseNotes ?? '', pub_date: feedDate(version) };
}

/**
 * When the version was published, to the second with a `Z`: the one form both Squirrel.Mac
 * (`yyyy-MM-dd'T'HH:mm:ssZZZZZ`, no fractions) and Tauri (RFC 3339) read.
 */
export function feedDate(version: Version): string {
  return `${(version.publishedAt ?? version.createdAt).toISOString().slice(0, 19)}Z`;
}
