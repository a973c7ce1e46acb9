import { z } from 'zod';
import { renderOptionalMarkdown } from '../markdown';
import { RELEASE_STATUSES } from '../releases/lifecycle';
import { type FeedKeys, updateFeedProblems } from '../releases/signed-files';
import { ARCHS, DEFAULT_ARCH, DEFAULT_PLATFORM, PLATFORMS } from '../releases/platforms';
import { FileRecord, Version, VersionWithFiles } from '../store/models';
import { FILE_TYPES } from '../releases/file-types';
import { iso, isoOrNull, messageField, timestamp } from './common';

export const fileResponse = z.object({
  applicationId: z.string(),
  version: z.string(),
  fileId: z.string(),
  fileName: z.string(),
  fileSize: z.number().int(),
  contentType: z.string(),
  /** `sha256:<hex>`; null while a large upload is being verified. */
  checksum: z.string().nullable(),
  /** SHA-512 of the bytes, base64; null while a large upload is being verified, and for files stored before it was kept until the backfill reaches them. */
  sha512: z.string().nullable(),
  /** SHA-1 of the bytes, hex (what Squirrel.Windows and Velopack check); null as sha512 is. */
  sha1: z.string().nullable(),
  fileType: z.enum(FILE_TYPES),
  platform: z.enum(PLATFORMS),
  arch: z.enum(ARCHS),
  status: z.enum(['pending', 'available', 'failed']),
  /** A SIGNATURE file's: why it no longer verifies under the application's update-signing key (not offered to Tauri clients); null otherwise. */
  signatureProblem: z.string().nullable(),
  createdAt: timestamp,
});

export function presentFile(file: FileRecord): z.input<typeof fileResponse> {
  return {
    applicationId: file.applicationId,
    version: file.version,
    fileId: file.fileId,
    fileName: file.fileName,
    fileSize: file.fileSize,
    contentType: file.contentType,
    checksum: file.checksum,
    sha512: file.sha512 ?? null,
    sha1: file.sha1 ?? null,
    fileType: file.fileType,
    platform: file.platform ?? DEFAULT_PLATFORM,
    arch: file.arch ?? DEFAULT_ARCH,
    status: file.status,
    signatureProblem: file.signatureProblem ?? null,
    createdAt: iso(file.createdAt),
  };
}

/**
 * Why update feeds leave the version out, one sentence each: a macOS build without a `.zip`
 * (electron-updater and Squirrel.Mac install only a zip); with a Sparkle key, a macOS build without
 * a signed archive (Sparkle); with an update-signing key, a MAIN build without a signature that
 * verifies (Tauri). Empty when nothing does.
 */
const updateFeedProblemsField = z.array(z.string());

/** A version's updateFeedProblems; `keys` null where the application's keys are not at hand (the rules that need them are left out). */
function feedProblemsOf(version: VersionWithFiles, keys: FeedKeys | null): string[] {
  return updateFeedProblems(version.files
    .map((file) => ({ ...file, platform: file.platform ?? DEFAULT_PLATFORM, arch: file.arch ?? DEFAULT_ARCH })), keys);
}

/**
 * A file as its upload answers it: with the notes, tier, channel and status of its version, and why
 * update feeds leave that version out as it now stands (the upload's answer says it at once).
 */
export const uploadedFileResponse = fileResponse.extend({
  releaseNotes: z.string().nullable(),
  requiredTier: z.string().nullable(),
  channel: z.string(),
  versionStatus: z.enum(RELEASE_STATUSES),
  updateFeedProblems: updateFeedProblemsField,
});

export function presentUploadedFile(file: FileRecord, version: VersionWithFiles, keys: FeedKeys | null): z.input<typeof uploadedFileResponse> {
  const { createdAt, ...described } = presentFile(file);
  return {
    ...described,
    releaseNotes: version.releaseNotes,
    requiredTier: version.requiredTier,
    channel: version.channel,
    versionStatus: version.status,
    updateFeedProblems: feedProblemsOf(version, keys),
    createdAt,
  };
}

export const versionResponse = z.object({
  applicationId: z.string(),
  version: z.string(),
  releaseNotes: z.string().nullable(),
  /** The release notes rendered from Markdown to sanitized HTML (shared/markdown.ts), for a page to show as they are; null without notes. */
  releaseNotesHtml: z.string().nullable(),
  requiredTier: z.string().nullable(),
  channel: z.string(),
  status: z.enum(RELEASE_STATUSES),
  rolloutPercentage: z.number().int(),
  /** The bundle version Sparkle compares (CFBundleVersion); null: the version string. */
  bundleVersion: z.string().nullable(),
  /** The oldest operating system version the release runs on; null: any. */
  minimumSystemVersion: z.string().nullable(),
  /** Whether update clients that know it (Sparkle) install it without letting the user skip it. */
  critical: z.boolean(),
  /** When the version was first published; null for a draft never published. */
  publishedAt: timestamp.nullable(),
  /** Why the version was yanked, as the yank said; null when it is not yanked or no reason was given. */
  yankReason: z.string().nullable(),
  /** Yanked with a rollback: the version the feeds offer instead to installs running this one. */
  rollbackTo: z.string().nullable(),
  /**
   * The keys its update signatures verified under: `minisign`, the key id (16 hex digits) of the
   * update-signing key (Tauri); `sparkle`, the Sparkle public key. Null while none of that kind verified.
   */
  signedUnder: z.object({ minisign: z.string().nullable(), sparkle: z.string().nullable() }),
  createdAt: timestamp,
  updatedAt: timestamp,
  files: z.array(fileResponse),
  updateFeedProblems: updateFeedProblemsField,
});

/** Rendered once per version record: the catalogue's records are frozen and replaced on every change. */
const renderedNotes = new WeakMap<Version, string | null>();

/** A version's release notes as sanitized HTML (shared/markdown.ts), the same for every answer and feed; null without notes. */
export function releaseNotesHtmlOf(version: Version): string | null {
  let html = renderedNotes.get(version);
  if (html === undefined) {
    html = renderOptionalMarkdown(version.releaseNotes);
    renderedNotes.set(version, html);
  }
  return html;
}

/**
 * A version as it leaves the service; `keys` are its application's (null where they are not at hand:
 * the problems that depend on them are then left out).
 */
export function presentVersion(version: VersionWithFiles, keys: FeedKeys | null): z.input<typeof versionResponse> {
  return {
    applicationId: version.applicationId,
    version: version.version,
    releaseNotes: version.releaseNotes,
    releaseNotesHtml: releaseNotesHtmlOf(version),
    requiredTier: version.requiredTier,
    channel: version.channel,
    status: version.status,
    rolloutPercentage: version.rolloutPercentage,
    bundleVersion: version.bundleVersion,
    minimumSystemVersion: version.minimumSystemVersion,
    critical: version.critical,
    publishedAt: isoOrNull(version.publishedAt),
    yankReason: version.yankReason ?? null,
    rollbackTo: version.rollbackTo ?? null,
    signedUnder: { minisign: version.signedUnder?.minisign ?? null, sparkle: version.signedUnder?.sparkle ?? null },
    createdAt: iso(version.createdAt),
    updatedAt: iso(version.updatedAt),
    files: version.files.map(presentFile),
    updateFeedProblems: feedProblemsOf(version, keys),
  };
}

export const versionListResponse = z.object({ versions: z.array(versionResponse) });

export function presentVersionList(versions: VersionWithFiles[], keys: FeedKeys | null): z.input<typeof versionListResponse> {
  return { versions: versions.map((version) => presentVersion(version, keys)) };
}

export const deletedVersionResponse = z.object({
  message: messageField,
  applicationId: z.string(),
  version: z.string(),
  /** The files deleted with the draft, their bytes included. */
  deletedFileIds: z.array(z.string()),
});

export function presentDeletedVersion(removal: { version: Version; files: FileRecord[] }): z.input<typeof deletedVersionResponse> {
  const { applicationId, version } = removal.version;
  return {
    message: `draft version ${version} of ${applicationId} deleted with ${removal.files.length} file(s)`,
    applicationId,
    version,
    deletedFileIds: removal.files.map((file) => file.fileId),
  };
}

export const deletedFileResponse = z.object({
  message: messageField,
  applicationId: z.string(),
  version: z.string(),
  fileId: z.string(),
  fileName: z.string(),
  /** What the file was when deleted: `failed` (a failed upload) or `available` (a file of a draft). */
  status: z.enum(['available', 'failed']),
});

export function presentDeletedFile(file: FileRecord): z.input<typeof deletedFileResponse> {
  return {
    message: `file ${file.fileName} of ${file.applicationId} ${file.version} deleted`,
    applicationId: file.applicationId,
    version: file.version,
    fileId: file.fileId,
    fileName: file.fileName,
    status: file.status === 'failed' ? 'failed' : 'available',
  };
}
