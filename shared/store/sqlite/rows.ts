import type { ReleaseStatus } from '../../releases/lifecycle';
import type { Arch, Platform } from '../../releases/platforms';
import type { Scope } from '../../scopes';
import type {
  AdminKey,
  ApiKey,
  Application,
  ApplicationLogo,
  AuditEntry,
  AuditOutcome,
  RolloutDecisionDetails,
  Customer,
  DistributionEvent,
  EventType,
  FileRecord,
  FileStatus,
  InitialReleaseStatus,
  LicenceAcceptance,
  PackageInfo,
  RepositoryKey,
  RepositoryKeyRing,
  RetiredSigningKey,
  ShareLink,
  SigningKeyKind,
  UploadSession,
  UploadStatus,
  Version,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookEndpoint,
  WebhookOutboxEntry,
  WebhookOutboxState,
} from '../models';
import type { FileType } from '../../releases/file-types';

/** Row shapes as SQLite returns them, and their mapping to store records. */
type Row = Record<string, unknown>;

const date = (value: unknown): Date => new Date(value as number);
const optionalDate = (value: unknown): Date | null => (value === null ? null : new Date(value as number));
const text = (value: unknown): string => value as string;
const optionalText = (value: unknown): string | null => (value === null ? null : (value as string));

export const toMillis = (value: Date | null | undefined): number | null => (value ? value.getTime() : null);

export function applicationFromRow(row: Row): Application {
  return {
    applicationId: text(row.application_id),
    name: text(row.name),
    description: optionalText(row.description),
    tags: JSON.parse(text(row.tags)),
    customerIds: JSON.parse(text(row.customer_ids)),
    updateSigningKey: optionalText(row.update_signing_key),
    sparklePublicKey: optionalText(row.sparkle_public_key),
    retiredSigningKeys: retiredKeysFromColumn(row.retired_signing_keys),
    defaultVersionStatus: text(row.default_version_status) as InitialReleaseStatus,
    licenceText: optionalText(row.licence_text),
    licenceRevision: row.licence_revision === null ? null : Number(row.licence_revision),
    displayName: optionalText(row.display_name),
    accentColour: optionalText(row.accent_colour),
    supportUrl: optionalText(row.support_url),
    logo: logoFromRow(row),
    isActive: row.deleted_at === null,
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
    deletedAt: optionalDate(row.deleted_at),
  };
}

/** The retired keys' column: JSON of {kind, key, keyId, retiredAt (milliseconds)}. */
export const retiredKeysColumn = (keys: readonly RetiredSigningKey[]): string =>
  JSON.stringify(keys.map((key) => ({ kind: key.kind, key: key.key, keyId: key.keyId, retiredAt: key.retiredAt.getTime() })));

function retiredKeysFromColumn(value: unknown): RetiredSigningKey[] {
  const keys = JSON.parse(typeof value === 'string' ? value : '[]') as { kind: SigningKeyKind; key: string; keyId: string | null; retiredAt: number }[];
  return keys.map((key) => ({ kind: key.kind, key: key.key, keyId: key.keyId, retiredAt: new Date(key.retiredAt) }));
}

function logoFromRow(row: Row): ApplicationLogo | null {
  if (row.logo_sha256 === null || row.logo_sha256 === undefined) return null;
  return {
    contentType: text(row.logo_content_type) as ApplicationLogo['contentType'],
    size: Number(row.logo_size),
    sha256: text(row.logo_sha256),
    updatedAt: date(row.logo_updated_at),
  };
}

/** An application's logo columns: all null when it has none. */
export function logoColumns(logo: ApplicationLogo | null): Row {
  return {
    logo_content_type: logo?.contentType ?? null,
    logo_size: logo?.size ?? null,
    logo_sha256: logo?.sha256 ?? null,
    logo_updated_at: toMillis(logo?.updatedAt),
  };
}

export function licenceAcceptanceFromRow(row: Row): LicenceAcceptance {
  return {
    applicationId: text(row.application_id),
    customerId: text(row.customer_id),
    revision: Number(row.revision),
    acceptedAt: date(row.accepted_at),
    clientIp: optionalText(row.client_ip),
  };
}

export function versionFromRow(row: Row): Version {
  return {
    applicationId: text(row.application_id),
    version: text(row.version),
    releaseNotes: optionalText(row.release_notes),
    requiredTier: optionalText(row.required_tier),
    channel: text(row.channel),
    status: text(row.status) as ReleaseStatus,
    rolloutPercentage: row.rollout_percentage as number,
    publishedAt: optionalDate(row.published_at),
    bundleVersion: optionalText(row.bundle_version),
    minimumSystemVersion: optionalText(row.minimum_system_version),
    critical: row.critical === 1,
    yankReason: optionalText(row.yank_reason),
    rollbackTo: optionalText(row.rollback_to),
    signedUnder: { minisign: optionalText(row.signed_minisign_key_id), sparkle: optionalText(row.signed_sparkle_key) },
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  };
}

export function fileFromRow(row: Row): FileRecord {
  return {
    fileId: text(row.file_id),
    applicationId: text(row.application_id),
    version: text(row.version),
    fileName: text(row.file_name),
    fileSize: row.file_size as number,
    contentType: text(row.content_type),
    checksum: optionalText(row.checksum),
    fileType: text(row.file_type) as FileType,
    status: text(row.status) as FileStatus,
    storageKey: text(row.storage_key),
    platform: text(row.platform) as Platform,
    arch: text(row.arch) as Arch,
    sha512: optionalText(row.sha512),
    sha1: optionalText(row.sha1),
    signatureProblem: optionalText(row.signature_problem),
    packageInfo: row.package_info === null || row.package_info === undefined ? null : JSON.parse(text(row.package_info)) as PackageInfo,
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  };
}

export function customerFromRow(row: Row): Customer {
  return {
    customerId: text(row.customer_id),
    name: text(row.name),
    tier: text(row.tier),
    isActive: row.is_active === 1,
    notes: optionalText(row.notes),
    updatesUntil: optionalDate(row.updates_until),
    versionRange: optionalText(row.version_range),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  };
}

export function apiKeyFromRow(row: Row): ApiKey {
  return {
    keyId: text(row.key_id),
    customerId: text(row.customer_id),
    keyHash: text(row.key_hash),
    prefix: text(row.prefix),
    createdAt: date(row.created_at),
    lastUsedAt: optionalDate(row.last_used_at),
    revokedAt: optionalDate(row.revoked_at),
  };
}

export function adminKeyFromRow(row: Row): AdminKey {
  return {
    keyId: text(row.key_id),
    name: text(row.name),
    keyHash: text(row.key_hash),
    prefix: text(row.prefix),
    scopes: JSON.parse(text(row.scopes)) as Scope[],
    applicationIds: row.application_ids === null ? null : (JSON.parse(text(row.application_ids)) as string[]),
    createdAt: date(row.created_at),
    expiresAt: optionalDate(row.expires_at),
    lastUsedAt: optionalDate(row.last_used_at),
    revokedAt: optionalDate(row.revoked_at),
  };
}

export function auditEntryFromRow(row: Row): AuditEntry {
  return {
    entryId: text(row.entry_id),
    timestamp: date(row.ts),
    actor: text(row.actor),
    action: text(row.action),
    target: optionalText(row.target),
    applicationId: optionalText(row.application_id),
    requestId: text(row.request_id),
    outcome: text(row.outcome) as AuditOutcome,
    status: row.status === null ? null : (row.status as number),
    ...(typeof row.details === 'string' ? { details: JSON.parse(row.details) as RolloutDecisionDetails } : {}),
  };
}

export function uploadSessionFromRow(row: Row): UploadSession {
  return {
    uploadId: text(row.upload_id),
    applicationId: text(row.application_id),
    version: text(row.version),
    fileName: text(row.file_name),
    fileSize: row.file_size as number,
    contentType: text(row.content_type),
    fileType: text(row.file_type) as FileType,
    releaseNotes: optionalText(row.release_notes),
    requiredTier: optionalText(row.required_tier),
    platform: text(row.platform) as Platform,
    arch: text(row.arch) as Arch,
    channel: optionalText(row.channel),
    versionStatus: optionalText(row.version_status) as InitialReleaseStatus | null,
    fileId: text(row.file_id),
    storageKey: text(row.storage_key),
    multipart: row.multipart_upload_id === null
      ? null
      : { storageUploadId: text(row.multipart_upload_id), partSize: row.multipart_part_size as number },
    status: text(row.status) as UploadStatus,
    expectedChecksum: optionalText(row.expected_checksum),
    failureReason: optionalText(row.failure_reason),
    expiresAt: date(row.expires_at),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  };
}

export function shareLinkFromRow(row: Row): ShareLink {
  return {
    tokenHash: text(row.token_hash),
    customerId: text(row.customer_id),
    applicationId: text(row.application_id),
    version: text(row.version),
    fileId: text(row.file_id),
    expiresAt: date(row.expires_at),
    revokedAt: optionalDate(row.revoked_at),
    expiredAt: optionalDate(row.expired_at),
    maxDownloads: row.max_downloads === null ? null : Number(row.max_downloads),
    downloadCount: Number(row.download_count),
    createdAt: date(row.created_at),
  };
}

export function eventFromRow(row: Row): DistributionEvent {
  return {
    eventId: text(row.event_id),
    type: text(row.type) as EventType,
    applicationId: text(row.application_id),
    version: text(row.version),
    fileId: text(row.file_id),
    customerId: optionalText(row.customer_id),
    clientIp: optionalText(row.client_ip),
    userAgent: optionalText(row.user_agent),
    platform: text(row.platform) as Platform,
    arch: text(row.arch) as Arch,
    timestamp: date(row.ts),
  };
}

export function webhookEndpointFromRow(row: Row): WebhookEndpoint {
  return {
    webhookId: text(row.webhook_id),
    url: text(row.url),
    events: JSON.parse(text(row.events)),
    description: optionalText(row.description),
    isActive: row.is_active === 1,
    disabledReason: optionalText(row.disabled_reason),
    secret: text(row.secret),
    previousSecret: optionalText(row.previous_secret),
    previousSecretExpiresAt: optionalDate(row.previous_secret_expires_at),
    failingSince: optionalDate(row.failing_since),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  };
}

export function webhookOutboxEntryFromRow(row: Row): WebhookOutboxEntry {
  return {
    eventId: text(row.event_id),
    type: text(row.type),
    occurredAt: date(row.occurred_at),
    state: text(row.state) as WebhookOutboxState,
    data: row.data === null ? null : JSON.parse(text(row.data)) as unknown,
    subject: JSON.parse(text(row.subject)) as string[],
    writtenAt: date(row.written_at),
  };
}

export function webhookDeliveryFromRow(row: Row): WebhookDelivery {
  return {
    deliveryId: text(row.delivery_id),
    webhookId: text(row.webhook_id),
    eventId: text(row.event_id),
    eventType: text(row.event_type),
    payload: text(row.payload),
    status: text(row.status) as WebhookDeliveryStatus,
    attempts: row.attempts as number,
    lastAttemptAt: optionalDate(row.last_attempt_at),
    responseStatus: row.response_status === null ? null : (row.response_status as number),
    responseBody: optionalText(row.response_body),
    error: optionalText(row.error),
    deliveredAt: optionalDate(row.delivered_at),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  };
}

/** A repository key as its ring's JSON column holds it: dates as milliseconds. */
export function repositoryKeyColumns(key: RepositoryKey): Record<string, unknown> {
  return { ...key, createdAt: key.createdAt.getTime(), retiresAt: key.retiresAt === null ? null : key.retiresAt.getTime() };
}

export function repositoryKeyRingFromRow(row: Row): RepositoryKeyRing {
  const keys = JSON.parse(text(row.keys)) as Array<Record<string, unknown>>;
  return {
    applicationId: text(row.application_id),
    revision: row.revision as number,
    keys: keys.map((key) => ({
      ...(key as unknown as RepositoryKey),
      createdAt: new Date(key.createdAt as number),
      retiresAt: key.retiresAt === null ? null : new Date(key.retiresAt as number),
    })),
  };
}
