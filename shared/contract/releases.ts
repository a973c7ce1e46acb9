import { z } from 'zod';
import { ARCHS, type FileTarget, PLATFORMS } from '../releases/platforms';
import { type FileRecord, type Version } from '../store/models';
import { FILE_TYPES } from '../releases/file-types';
import { isoOrNull, pagination, paginationResponse, timestamp } from './common';
import { releaseNotesHtmlOf } from './versions';

/** An available file, with the platform and arch every stored file has. */
export type ReleaseFile = FileRecord & FileTarget;

/** A published version offered to a customer, with its available files that match the selectors, oldest first. */
export interface OfferedRelease {
  version: Version;
  files: readonly ReleaseFile[];
}

/** A file as a customer's releases listing shows it: what a download page needs, never a URL. */
export const releaseFileResponse = z.object({
  fileId: z.string(),
  fileName: z.string(),
  fileSize: z.number().int(),
  platform: z.enum(PLATFORMS),
  arch: z.enum(ARCHS),
  fileType: z.enum(FILE_TYPES),
  /** `sha256:<hex>`. */
  checksum: z.string(),
  /** SHA-512 of the bytes, base64; null for a file stored before digests were kept, until it is computed. */
  sha512: z.string().nullable(),
  /** SHA-1 of the bytes, hex; null as sha512 is. */
  sha1: z.string().nullable(),
});

function presentReleaseFile(file: ReleaseFile): z.input<typeof releaseFileResponse> {
  return {
    fileId: file.fileId,
    fileName: file.fileName,
    fileSize: file.fileSize,
    platform: file.platform,
    arch: file.arch,
    fileType: file.fileType,
    checksum: file.checksum as string,
    sha512: file.sha512 ?? null,
    sha1: file.sha1 ?? null,
  };
}

export const releaseResponse = z.object({
  version: z.string(),
  channel: z.string(),
  publishedAt: timestamp.nullable(),
  releaseNotes: z.string().nullable(),
  /** The notes' Markdown rendered as sanitized HTML (shared/markdown.ts), ready for a page; null without notes. */
  releaseNotesHtml: z.string().nullable(),
  files: z.array(releaseFileResponse),
});

function presentRelease({ version, files }: OfferedRelease): z.input<typeof releaseResponse> {
  return {
    version: version.version,
    channel: version.channel,
    publishedAt: isoOrNull(version.publishedAt),
    releaseNotes: version.releaseNotes,
    releaseNotesHtml: releaseNotesHtmlOf(version),
    files: files.map(presentReleaseFile),
  };
}

export const releaseListResponse = z.object({ releases: z.array(releaseResponse), pagination: paginationResponse });

/** One page of the releases offered to a customer, newest first. */
export function presentReleaseList(releases: readonly OfferedRelease[], page: number, pageSize: number): z.input<typeof releaseListResponse> {
  const start = (page - 1) * pageSize;
  return { releases: releases.slice(start, start + pageSize).map(presentRelease), pagination: pagination(page, pageSize, releases.length) };
}
