import type { ApiKey, Application, Customer, DistributionEvent, FileRecord, ShareLink, UploadSession, Version } from '../store/models';

/**
 * The events webhooks can subscribe to, and the `data` of each. A payload is
 * `{"type": <event type>, "timestamp": <ISO 8601>, "data": <below>}` (the Standard Webhooks shape).
 * Secrets never appear in one: a key is named by its id and prefix, a share link by what it points at.
 */
export const WEBHOOK_EVENT_TYPES = [
  'upload.completed',
  'upload.failed',
  'version.published',
  'version.yanked',
  'version.deleted',
  'application.deleted',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'apikey.created',
  'apikey.revoked',
  'share_link.created',
  'download.recorded',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface UploadCompletedData {
  /** null for a small upload, which has no session. */
  uploadId: string | null;
  applicationId: string;
  version: string;
  fileId: string;
  fileName: string;
  fileSize: number;
  contentType: string;
  checksum: string | null;
  fileType: string;
  platform: string;
  arch: string;
  createdAt: string;
}

export interface UploadFailedData {
  uploadId: string;
  applicationId: string;
  version: string;
  fileId: string;
  fileName: string;
  fileSize: number;
  failureReason: string;
}

export interface VersionData {
  applicationId: string;
  version: string;
  channel: string;
  status: string;
  requiredTier: string | null;
  publishedAt: string | null;
  updatedAt: string;
}

export interface ApplicationDeletedData {
  applicationId: string;
  name: string;
  deletedAt: string | null;
}

export interface CustomerData {
  customerId: string;
  name: string;
  tier: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ApiKeyData {
  customerId: string;
  keyId: string;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface ShareLinkCreatedData {
  customerId: string;
  applicationId: string;
  version: string;
  fileId: string;
  expiresAt: string;
  createdAt: string;
}

export interface DownloadRecordedData {
  eventId: string;
  applicationId: string;
  version: string;
  fileId: string;
  customerId: string | null;
  clientIp: string | null;
  userAgent: string | null;
  platform: string;
  arch: string;
  timestamp: string;
}

export interface WebhookEventData {
  'upload.completed': UploadCompletedData;
  'upload.failed': UploadFailedData;
  'version.published': VersionData;
  'version.yanked': VersionData;
  /** A draft deleted with its files. */
  'version.deleted': VersionData;
  'application.deleted': ApplicationDeletedData;
  'customer.created': CustomerData;
  'customer.updated': CustomerData;
  /** The customer as it was; its keys and share links are revoked and its activity anonymised. */
  'customer.deleted': CustomerData;
  'apikey.created': ApiKeyData;
  'apikey.revoked': ApiKeyData;
  'share_link.created': ShareLinkCreatedData;
  'download.recorded': DownloadRecordedData;
}

const iso = (date: Date): string => date.toISOString();
const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null);

/** The data of each event, from the records it is about. */
export const webhookData = {
  uploadCompleted: (file: FileRecord, uploadId: string | null): UploadCompletedData => ({
    uploadId,
    applicationId: file.applicationId,
    version: file.version,
    fileId: file.fileId,
    fileName: file.fileName,
    fileSize: file.fileSize,
    contentType: file.contentType,
    checksum: file.checksum,
    fileType: file.fileType,
    platform: file.platform ?? 'any',
    arch: file.arch ?? 'any',
    createdAt: iso(file.createdAt),
  }),
  uploadFailed: (session: UploadSession, failureReason: string): UploadFailedData => ({
    uploadId: session.uploadId,
    applicationId: session.applicationId,
    version: session.version,
    fileId: session.fileId,
    fileName: session.fileName,
    fileSize: session.fileSize,
    failureReason,
  }),
  version: (version: Version): VersionData => ({
    applicationId: version.applicationId,
    version: version.version,
    channel: version.channel,
    status: version.status,
    requiredTier: version.requiredTier,
    publishedAt: isoOrNull(version.publishedAt),
    updatedAt: iso(version.updatedAt),
  }),
  applicationDeleted: (application: Application): ApplicationDeletedData => ({
    applicationId: application.applicationId,
    name: application.name,
    deletedAt: isoOrNull(application.deletedAt),
  }),
  customer: (customer: Customer): CustomerData => ({
    customerId: customer.customerId,
    name: customer.name,
    tier: customer.tier,
    isActive: customer.isActive,
    createdAt: iso(customer.createdAt),
    updatedAt: iso(customer.updatedAt),
  }),
  apiKey: (key: ApiKey): ApiKeyData => ({
    customerId: key.customerId,
    keyId: key.keyId,
    prefix: key.prefix,
    createdAt: iso(key.createdAt),
    revokedAt: isoOrNull(key.revokedAt),
  }),
  shareLinkCreated: (link: ShareLink): ShareLinkCreatedData => ({
    customerId: link.customerId,
    applicationId: link.applicationId,
    version: link.version,
    fileId: link.fileId,
    expiresAt: iso(link.expiresAt),
    createdAt: iso(link.createdAt),
  }),
  downloadRecorded: (event: DistributionEvent): DownloadRecordedData => ({
    eventId: event.eventId,
    applicationId: event.applicationId,
    version: event.version,
    fileId: event.fileId,
    customerId: event.customerId,
    clientIp: event.clientIp,
    userAgent: event.userAgent,
    platform: event.platform,
    arch: event.arch,
    timestamp: iso(event.timestamp),
  }),
};

/**
 * True when a version became published by the change made at `at`: it was first published then.
 * An upload creating a version publishes it; an upload into an existing version does not.
 */
export function firstPublishedAt(version: Version, at: Date): boolean {
  return version.status === 'published' && version.publishedAt?.getTime() === at.getTime();
}
