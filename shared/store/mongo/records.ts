import { DEFAULT_UPLOAD_STATUS } from '../../releases/lifecycle';
import { DEFAULT_ARCH, DEFAULT_PLATFORM, PLATFORMS } from '../../releases/platforms';
import { DEFAULT_ROLLOUT_PERCENTAGE } from '../../releases/rollout';
import type {
  AdminKey, ApiKey, Application, AuditEntry, Customer, DailyCount, DistributionEvent, FileRecord, ShareLink, UploadSession, Version,
  WebhookDelivery, WebhookEndpoint, WebhookOutboxEntry,
} from '../models';
import type { StoreOptions } from '../options';
import type { DailyCountDoc, EventDoc } from './schemas/activity';
import type { ShareLinkDoc, UploadSessionDoc } from './schemas/uploads-and-links';
import type { AdminKeyDoc, ApiKeyDoc, CustomerDoc } from './schemas/accounts';
import type { AuditEntryDoc } from './schemas/audit';
import type { ApplicationDoc, FileDoc, StoredVersionDoc } from './schemas/catalog';
import type { WebhookDeliveryDoc, WebhookEndpointDoc, WebhookOutboxDoc } from './schemas/webhooks';

/**
 * Stored documents to store records: exactly the record's fields (no _id or bookkeeping fields),
 * and null where a field is absent, as the SQLite adapter returns them. A field a document lacks
 * because it was stored before the field existed reads as its default, as the SQLite migration
 * fills it in.
 */
const orNull = <T>(value: T | null | undefined): T | null => value ?? null;

export function toApplication(doc: ApplicationDoc): Application {
  return {
    applicationId: doc.applicationId,
    name: doc.name,
    description: orNull(doc.description),
    tags: [...doc.tags],
    customerIds: [...doc.customerIds],
    updateSigningKey: orNull(doc.updateSigningKey),
    sparklePublicKey: orNull(doc.sparklePublicKey),
    retiredSigningKeys: (doc.retiredSigningKeys ?? []).map((key) => ({ kind: key.kind, key: key.key, keyId: orNull(key.keyId), retiredAt: key.retiredAt })),
    defaultVersionStatus: doc.defaultVersionStatus ?? DEFAULT_UPLOAD_STATUS,
    licenceText: orNull(doc.licenceText),
    licenceRevision: orNull(doc.licenceRevision),
    displayName: orNull(doc.displayName),
    accentColour: orNull(doc.accentColour),
    supportUrl: orNull(doc.supportUrl),
    logo: doc.logo ? { contentType: doc.logo.contentType, size: doc.logo.size, sha256: doc.logo.sha256, updatedAt: doc.logo.updatedAt } : null,
    isActive: orNull(doc.deletedAt) === null,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    deletedAt: orNull(doc.deletedAt),
  };
}

export function toVersion(doc: StoredVersionDoc, options: StoreOptions): Version {
  return {
    applicationId: doc.applicationId,
    version: doc.version,
    releaseNotes: orNull(doc.releaseNotes),
    requiredTier: orNull(doc.requiredTier),
    channel: doc.channel ?? options.defaultChannel,
    status: doc.status ?? DEFAULT_UPLOAD_STATUS,
    rolloutPercentage: doc.rolloutPercentage ?? DEFAULT_ROLLOUT_PERCENTAGE,
    // Absent (not null) only on versions stored before lifecycles, all published when created.
    publishedAt: doc.publishedAt === undefined ? doc.createdAt : doc.publishedAt,
    // Absent on versions stored before Sparkle's fields.
    bundleVersion: orNull(doc.bundleVersion),
    minimumSystemVersion: orNull(doc.minimumSystemVersion),
    critical: doc.critical ?? false,
    yankReason: orNull(doc.yankReason),
    rollbackTo: orNull(doc.rollbackTo),
    // Absent on versions stored before signing keys were recorded.
    signedUnder: { minisign: orNull(doc.signedUnder?.minisign), sparkle: orNull(doc.signedUnder?.sparkle) },
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

export function toFile(doc: FileDoc): FileRecord {
  return {
    fileId: doc.fileId,
    applicationId: doc.applicationId,
    version: doc.version,
    fileName: doc.fileName,
    fileSize: doc.fileSize,
    contentType: doc.contentType,
    checksum: orNull(doc.checksum),
    fileType: doc.fileType,
    status: doc.status,
    storageKey: doc.storageKey,
    platform: doc.platform ?? DEFAULT_PLATFORM,
    arch: doc.arch ?? DEFAULT_ARCH,
    sha512: orNull(doc.sha512),
    sha1: orNull(doc.sha1),
    signatureProblem: orNull(doc.signatureProblem),
    packageInfo: orNull(doc.packageInfo),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

export function toCustomer(doc: CustomerDoc): Customer {
  return {
    customerId: doc.customerId,
    name: doc.name,
    tier: doc.tier,
    isActive: doc.isActive,
    notes: orNull(doc.notes),
    updatesUntil: orNull(doc.updatesUntil),
    versionRange: orNull(doc.versionRange),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

export function toApiKey(doc: ApiKeyDoc): ApiKey {
  return {
    keyId: doc.keyId,
    customerId: doc.customerId,
    keyHash: doc.keyHash,
    prefix: doc.prefix,
    createdAt: doc.createdAt,
    lastUsedAt: orNull(doc.lastUsedAt),
    revokedAt: orNull(doc.revokedAt),
  };
}

export function toAdminKey(doc: AdminKeyDoc): AdminKey {
  return {
    keyId: doc.keyId,
    name: doc.name,
    keyHash: doc.keyHash,
    prefix: doc.prefix,
    scopes: [...doc.scopes],
    applicationIds: doc.applicationIds ? [...doc.applicationIds] : null,
    createdAt: doc.createdAt,
    expiresAt: orNull(doc.expiresAt),
    lastUsedAt: orNull(doc.lastUsedAt),
    revokedAt: orNull(doc.revokedAt),
  };
}

export function toAuditEntry(doc: AuditEntryDoc): AuditEntry {
  return {
    entryId: doc.entryId,
    timestamp: doc.timestamp,
    actor: doc.actor,
    action: doc.action,
    target: orNull(doc.target),
    applicationId: orNull(doc.applicationId),
    requestId: doc.requestId,
    outcome: doc.outcome,
    status: orNull(doc.status),
    ...(doc.details ? { details: doc.details } : {}),
  };
}

export function toUploadSession(doc: UploadSessionDoc): UploadSession {
  return {
    uploadId: doc.uploadId,
    applicationId: doc.applicationId,
    version: doc.version,
    fileName: doc.fileName,
    fileSize: doc.fileSize,
    contentType: doc.contentType,
    fileType: doc.fileType,
    releaseNotes: orNull(doc.releaseNotes),
    requiredTier: orNull(doc.requiredTier),
    platform: doc.platform ?? DEFAULT_PLATFORM,
    arch: doc.arch ?? DEFAULT_ARCH,
    channel: orNull(doc.channel),
    versionStatus: orNull(doc.versionStatus),
    fileId: doc.fileId,
    storageKey: doc.storageKey,
    multipart: doc.multipart ? { storageUploadId: doc.multipart.storageUploadId, partSize: doc.multipart.partSize } : null,
    status: doc.status,
    expectedChecksum: orNull(doc.expectedChecksum),
    failureReason: orNull(doc.failureReason),
    expiresAt: doc.expiresAt,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

export function toShareLink(doc: ShareLinkDoc): ShareLink {
  return {
    tokenHash: doc.tokenHash,
    customerId: doc.customerId,
    applicationId: doc.applicationId,
    version: doc.version,
    fileId: doc.fileId,
    expiresAt: doc.expiresAt,
    revokedAt: orNull(doc.revokedAt),
    expiredAt: orNull(doc.expiredAt),
    maxDownloads: orNull(doc.maxDownloads),
    downloadCount: doc.downloadCount ?? 0,
    createdAt: doc.createdAt,
  };
}

export function toEvent(doc: EventDoc): DistributionEvent {
  return {
    eventId: doc.eventId,
    type: doc.type,
    applicationId: doc.applicationId,
    version: doc.version,
    fileId: doc.fileId,
    customerId: orNull(doc.customerId),
    clientIp: orNull(doc.clientIp),
    userAgent: orNull(doc.userAgent),
    platform: doc.platform ?? DEFAULT_PLATFORM,
    arch: doc.arch ?? DEFAULT_ARCH,
    timestamp: doc.timestamp,
  };
}

export function toWebhookEndpoint(doc: WebhookEndpointDoc): WebhookEndpoint {
  return {
    webhookId: doc.webhookId,
    url: doc.url,
    events: [...doc.events],
    description: orNull(doc.description),
    isActive: doc.isActive,
    disabledReason: orNull(doc.disabledReason),
    secret: doc.secret,
    previousSecret: orNull(doc.previousSecret),
    previousSecretExpiresAt: orNull(doc.previousSecretExpiresAt),
    failingSince: orNull(doc.failingSince),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

export function toWebhookOutboxEntry(doc: WebhookOutboxDoc): WebhookOutboxEntry {
  return {
    eventId: doc.eventId,
    type: doc.type,
    occurredAt: doc.occurredAt,
    state: doc.state ?? 'ready',
    data: doc.data === null || doc.data === undefined ? null : JSON.parse(doc.data) as unknown,
    subject: doc.subject ?? [],
    writtenAt: doc.keptAt,
  };
}

export function toWebhookDelivery(doc: WebhookDeliveryDoc): WebhookDelivery {
  return {
    deliveryId: doc.deliveryId,
    webhookId: doc.webhookId,
    eventId: doc.eventId,
    eventType: doc.eventType,
    payload: doc.payload,
    status: doc.status,
    attempts: doc.attempts,
    lastAttemptAt: orNull(doc.lastAttemptAt),
    responseStatus: orNull(doc.responseStatus),
    responseBody: orNull(doc.responseBody),
    error: orNull(doc.error),
    deliveredAt: orNull(doc.deliveredAt),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

/** Platforms in the order daily counts list them (ascending, as SQLite sorts them). */
const PLATFORMS_ASCENDING = [...PLATFORMS].sort();

/**
 * A counter's rows, one per platform with downloads, in platform order. What its total holds beyond
 * the platforms' parts was counted before counters had platforms: `any`'s, as SQLite's migration counts it.
 */
export function toDailyCounts(doc: DailyCountDoc): DailyCount[] {
  const parts = doc.platforms ?? {};
  const attributed = PLATFORMS.reduce((sum, platform) => sum + (parts[platform] ?? 0), 0);
  return PLATFORMS_ASCENDING
    .map((platform) => ({ platform, count: (parts[platform] ?? 0) + (platform === DEFAULT_PLATFORM ? doc.count - attributed : 0) }))
    .filter(({ count }) => count > 0)
    .map(({ platform, count }) => ({ applicationId: doc.applicationId, version: doc.version, platform, date: doc.date, count }));
}
