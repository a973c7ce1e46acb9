import { z } from 'zod';
import type { FileRecord, ShareLink } from '../store/models';
import { iso, messageField, timestamp } from './common';

/** A URL signed for one file, as every request for it within one second gets it. */
export interface SignedDownload {
  file: FileRecord;
  downloadUrl: string;
  expiresAt: Date;
}

export const downloadResponse = z.object({
  downloadUrl: z.string().url(),
  /** The expiry the URL itself carries, to the second. */
  expiresAt: timestamp,
  fileName: z.string(),
  fileSize: z.number().int(),
  checksum: z.string(),
  fileId: z.string(),
  /** The version the file belongs to: what `latest` resolved to. */
  version: z.string(),
});

export function presentDownload({ file, downloadUrl, expiresAt }: SignedDownload): z.input<typeof downloadResponse> {
  return {
    downloadUrl,
    expiresAt: iso(expiresAt),
    fileName: file.fileName,
    fileSize: file.fileSize,
    checksum: file.checksum as string,
    fileId: file.fileId,
    version: file.version,
  };
}

/** The body of a share link's 302, next to its Location header. */
export const redirectResponse = z.object({ downloadUrl: z.string().url(), expiresAt: timestamp });

export function presentRedirect({ downloadUrl, expiresAt }: SignedDownload): z.input<typeof redirectResponse> {
  return { downloadUrl, expiresAt: iso(expiresAt) };
}

/** A link's cap and its uses so far: only a capped link's uses are counted (null for both without a cap). */
const usage = {
  maxDownloads: z.number().int().nullable(),
  downloadCount: z.number().int().nullable(),
};

function usageOf(link: ShareLink): { maxDownloads: number | null; downloadCount: number | null } {
  return { maxDownloads: link.maxDownloads, downloadCount: link.maxDownloads === null ? null : link.downloadCount };
}

/**
 * A share link without its token, which only its creator is shown: who made it, what it downloads
 * (`version` and `fileId`: with `latest`, the version it resolved to when the link was made), until when.
 */
export const shareLinkResponse = z.object({
  customerId: z.string(),
  applicationId: z.string(),
  version: z.string(),
  fileId: z.string(),
  expiresAt: timestamp,
  createdAt: timestamp,
  ...usage,
});

export function presentShareLink(link: ShareLink): z.input<typeof shareLinkResponse> {
  return {
    customerId: link.customerId,
    applicationId: link.applicationId,
    version: link.version,
    fileId: link.fileId,
    expiresAt: iso(link.expiresAt),
    createdAt: iso(link.createdAt),
    ...usageOf(link),
  };
}

/** A new share link with its URL and token: the only time the token is shown. */
export const createdShareLinkResponse = shareLinkResponse.extend({ shareUrl: z.string().url(), token: z.string() });

export function presentCreatedShareLink(link: ShareLink, token: string, shareUrl: string): z.input<typeof createdShareLinkResponse> {
  return { shareUrl, token, ...presentShareLink(link) };
}

/**
 * A customer's share link as the vendor's team sees it: its id (the SHA-256 of its token, which
 * only its creator was shown), whether it still works, and the uses it has left.
 */
export const customerShareLinkResponse = shareLinkResponse.extend({
  shareLinkId: z.string(),
  revokedAt: timestamp.nullable(),
  /** Uses left on a capped link; null without a cap. */
  remainingDownloads: z.number().int().nullable(),
});

export function presentCustomerShareLink(link: ShareLink): z.input<typeof customerShareLinkResponse> {
  return {
    ...presentShareLink(link),
    shareLinkId: link.tokenHash,
    revokedAt: link.revokedAt ? iso(link.revokedAt) : null,
    remainingDownloads: link.maxDownloads === null ? null : Math.max(0, link.maxDownloads - link.downloadCount),
  };
}

export const customerShareLinkListResponse = z.object({ shareLinks: z.array(customerShareLinkResponse) });

export function presentCustomerShareLinkList(links: ShareLink[]): z.input<typeof customerShareLinkListResponse> {
  return { shareLinks: links.map(presentCustomerShareLink) };
}

/** A share link made for a customer by the vendor's team: the URL and token are shown this once. */
export const createdCustomerShareLinkResponse = customerShareLinkResponse.extend({ shareUrl: z.string().url(), token: z.string() });

export function presentCreatedCustomerShareLink(link: ShareLink, token: string, shareUrl: string): z.input<typeof createdCustomerShareLinkResponse> {
  return { shareUrl, token, ...presentCustomerShareLink(link) };
}

export const revokedShareLinkResponse = z.object({ message: messageField, revokedAt: timestamp, expiresAt: timestamp, ...usage });

export function presentRevokedShareLink(link: ShareLink): z.input<typeof revokedShareLinkResponse> {
  return { message: 'share link revoked', revokedAt: iso(link.revokedAt as Date), expiresAt: iso(link.expiresAt), ...usageOf(link) };
}
