import type {
  AccessToken,
  CheckEvent,
  AdminKey,
  ApiKey,
  Application,
  AuditEntry,
  Customer,
  DistributionEvent,
  FileRecord,
  ShareLink,
  UploadSession,
  Version,
  WebhookDelivery,
  WebhookEndpoint,
} from '../../shared/store/models';

/**
 * Builders of valid store records, one per record: plausible fields, any of them overridden, so each
 * test states only what matters to it. Instants default to a fixed origin, so expected dates are exact.
 */
const ORIGIN = Date.parse('2026-03-01T10:00:00.000Z');

/** An instant `minutes` after the fixed origin. */
export const at = (minutes: number): Date => new Date(ORIGIN + minutes * 60_000);

export function application(applicationId: string, overrides: Partial<Application> = {}): Application {
  return {
    applicationId,
    name: `Application ${applicationId}`,
    description: null,
    tags: [],
    customerIds: [],
    updateSigningKey: null,
    sparklePublicKey: null,
    retiredSigningKeys: [],
    defaultVersionStatus: 'published',
    licenceText: null,
    licenceRevision: null,
    displayName: null,
    accentColour: null,
    supportUrl: null,
    logo: null,
    isActive: true,
    createdAt: at(0),
    updatedAt: at(0),
    deletedAt: null,
    ...overrides,
  };
}

/** A version as the store returns one created at `at(0)` with nothing but its name: published at once, in `stable`, to everyone. */
export function version(applicationId: string, name: string, overrides: Partial<Version> = {}): Version {
  return {
    applicationId,
    version: name,
    releaseNotes: null,
    requiredTier: null,
    channel: 'stable',
    status: 'published',
    rolloutPercentage: 100,
    publishedAt: at(0),
    bundleVersion: null,
    minimumSystemVersion: null,
    critical: false,
    yankReason: null,
    rollbackTo: null,
    signedUnder: { minisign: null, sparkle: null },
    createdAt: at(0),
    updatedAt: at(0),
    ...overrides,
  };
}

export function file(fileId: string, overrides: Partial<FileRecord> = {}): FileRecord {
  return {
    fileId,
    applicationId: 'app_1',
    version: '1.0.0',
    fileName: `${fileId}.bin`,
    fileSize: 5_000_000_000,
    contentType: 'application/octet-stream',
    checksum: `sha256:${'ab'.repeat(32)}`,
    fileType: 'DEPENDENCY',
    status: 'available',
    storageKey: `apps/app_1/${fileId}`,
    platform: 'any',
    arch: 'any',
    sha512: null,
    sha1: null,
    signatureProblem: null,
    packageInfo: null,
    createdAt: at(0),
    updatedAt: at(0),
    ...overrides,
  };
}

export function customer(customerId: string, overrides: Partial<Customer> = {}): Customer {
  return {
    customerId,
    name: `Customer ${customerId}`,
    tier: 'basic',
    isActive: true,
    notes: null,
    updatesUntil: null,
    versionRange: null,
    createdAt: at(0),
    updatedAt: at(0),
    ...overrides,
  };
}

export function apiKey(keyId: string, overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    keyId,
    customerId: 'cust_1',
    keyHash: `hash-${keyId}`,
    prefix: `bds_${keyId}`,
    createdAt: at(0),
    lastUsedAt: null,
    revokedAt: null,
    ...overrides,
  };
}

export function accessToken(tokenId: string, overrides: Partial<AccessToken> = {}): AccessToken {
  return {
    tokenId,
    customerId: 'cust_1',
    tokenHash: `hash-${tokenId}`,
    prefix: `bdt_${tokenId}`,
    name: null,
    maxDownloads: null,
    maxClients: null,
    maxBytes: null,
    validFrom: null,
    validUntil: null,
    applications: null,
    channels: null,
    platforms: null,
    resetEvery: null,
    updatesUntil: null,
    versionRange: null,
    createdAt: at(0),
    updatedAt: at(0),
    lastUsedAt: null,
    revokedAt: null,
    ...overrides,
  };
}

export function adminKey(keyId: string, overrides: Partial<AdminKey> = {}): AdminKey {
  return {
    keyId,
    name: `Key ${keyId}`,
    keyHash: `admin-hash-${keyId}`,
    prefix: `adm_${keyId}`,
    scopes: ['publish', 'read'],
    applicationIds: null,
    createdAt: at(0),
    expiresAt: null,
    lastUsedAt: null,
    revokedAt: null,
    ...overrides,
  };
}

/** An audited request as recorded before its handler ran. */
export function auditEntry(entryId: string, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    entryId,
    timestamp: at(0),
    actor: 'root',
    action: 'application.update',
    target: 'app_1',
    applicationId: 'app_1',
    requestId: `req-${entryId}`,
    outcome: 'pending',
    status: null,
    ...overrides,
  };
}

export function uploadSession(uploadId: string, overrides: Partial<UploadSession> = {}): UploadSession {
  return {
    uploadId,
    applicationId: 'app_1',
    version: '1.0.0',
    fileName: 'installer.exe',
    fileSize: 123_456,
    contentType: 'application/octet-stream',
    fileType: 'MAIN',
    releaseNotes: 'First release',
    requiredTier: null,
    platform: 'any',
    arch: 'any',
    channel: null,
    versionStatus: null,
    fileId: `file_${uploadId}`,
    storageKey: `uploads/${uploadId}`,
    multipart: null,
    status: 'issued',
    expectedChecksum: null,
    failureReason: null,
    expiresAt: at(60),
    createdAt: at(0),
    updatedAt: at(0),
    ...overrides,
  };
}

export function shareLink(tokenHash: string, overrides: Partial<ShareLink> = {}): ShareLink {
  return {
    tokenHash,
    customerId: 'cust_1',
    applicationId: 'app_1',
    version: '1.0.0',
    fileId: 'file_1',
    expiresAt: at(60),
    revokedAt: null,
    expiredAt: null,
    maxDownloads: null,
    downloadCount: 0,
    createdAt: at(0),
    ...overrides,
  };
}

/** A download event (any event, with `type` overridden). */
export function downloadEvent(eventId: string, overrides: Partial<DistributionEvent> = {}): DistributionEvent {
  return {
    eventId,
    type: 'download',
    applicationId: 'app_1',
    version: '1.0.0',
    fileId: 'file_1',
    customerId: 'cust_1',
    clientIp: '203.0.113.7',
    userAgent: 'curl/8.5.0',
    platform: 'any',
    arch: 'any',
    timestamp: at(0),
    ...overrides,
  };
}

/** An answered update check (electron-updater on Linux x64 in the default channel, unless overridden). */
export function checkEvent(eventId: string, overrides: Partial<CheckEvent> = {}): CheckEvent {
  return {
    eventId,
    applicationId: 'app_1',
    customerId: 'cust_1',
    client: 'electron-updater',
    platform: 'linux',
    arch: 'x64',
    channel: 'stable',
    runningVersion: '1.0.0',
    offeredVersion: null,
    installId: null,
    installHash: `hash_${eventId}`,
    timestamp: at(0),
    ...overrides,
  };
}

/** The n-th of a numbered series of download events, ids sorting in order. */
export const numberedDownloadEvent = (n: number): DistributionEvent => downloadEvent(`evt_${String(n).padStart(8, '0')}`);

export function webhookEndpoint(webhookId: string, overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    webhookId,
    url: 'https://hooks.example.com/in',
    events: ['customer.created'],
    description: null,
    isActive: true,
    disabledReason: null,
    secret: `sealed-${webhookId}`,
    previousSecret: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    createdAt: at(0),
    updatedAt: at(0),
    ...overrides,
  };
}

export function webhookDelivery(deliveryId: string, overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    deliveryId,
    webhookId: 'whk_1',
    eventId: 'evt_1',
    eventType: 'customer.created',
    payload: '{"type":"customer.created","timestamp":"2026-03-01T10:00:00.000Z","data":{}}',
    status: 'pending',
    attempts: 0,
    lastAttemptAt: null,
    responseStatus: null,
    responseBody: null,
    error: null,
    deliveredAt: null,
    createdAt: at(0),
    updatedAt: at(0),
    ...overrides,
  };
}
