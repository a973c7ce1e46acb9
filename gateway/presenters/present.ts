import type { ApiKey, Application, Customer, FileRecord, UploadSession, Version, VersionWithFiles } from '../../shared/store/models';

/** What leaves the process: ISO timestamps, never a key hash or a storage key. */
const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function presentApplication(app: Application) {
  return {
    applicationId: app.applicationId,
    name: app.name,
    description: app.description,
    tags: app.tags,
    customerIds: app.customerIds,
    isActive: app.isActive,
    createdAt: iso(app.createdAt),
    updatedAt: iso(app.updatedAt),
    deletedAt: iso(app.deletedAt),
  };
}

export function presentFile(file: FileRecord, version?: Version | null) {
  return {
    applicationId: file.applicationId,
    version: file.version,
    fileId: file.fileId,
    fileName: file.fileName,
    fileSize: file.fileSize,
    contentType: file.contentType,
    checksum: file.checksum,
    fileType: file.fileType,
    status: file.status,
    ...(version !== undefined ? { releaseNotes: version?.releaseNotes ?? null, requiredTier: version?.requiredTier ?? null } : {}),
    createdAt: iso(file.createdAt),
  };
}

export function presentVersion(version: VersionWithFiles) {
  return {
    version: version.version,
    releaseNotes: version.releaseNotes,
    requiredTier: version.requiredTier,
    createdAt: iso(version.createdAt),
    updatedAt: iso(version.updatedAt),
    files: version.files.map((f) => presentFile(f)),
  };
}

export function presentCustomer(customer: Customer) {
  return {
    customerId: customer.customerId,
    name: customer.name,
    tier: customer.tier,
    isActive: customer.isActive,
    notes: customer.notes,
    createdAt: iso(customer.createdAt),
    updatedAt: iso(customer.updatedAt),
  };
}

export function presentApiKey(key: ApiKey) {
  return {
    keyId: key.keyId,
    customerId: key.customerId,
    prefix: key.prefix,
    createdAt: iso(key.createdAt),
    lastUsedAt: iso(key.lastUsedAt),
  };
}

export function presentUploadSession(session: UploadSession, file: FileRecord | null, version: Version | null) {
  return {
    uploadId: session.uploadId,
    applicationId: session.applicationId,
    version: session.version,
    fileName: session.fileName,
    fileSize: session.fileSize,
    status: session.status,
    failureReason: session.failureReason,
    expiresAt: iso(session.expiresAt),
    createdAt: iso(session.createdAt),
    updatedAt: iso(session.updatedAt),
    file: session.status === 'completed' && file ? presentFile(file, version) : null,
  };
}

export function pagination(page: number, pageSize: number, total: number) {
  return { page, pageSize, total, totalPages: Math.ceil(total / pageSize) };
}
