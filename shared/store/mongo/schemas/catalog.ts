import { Schema } from 'mongoose';
import type { Application, ApplicationLogo, FileRecord, LicenceAcceptance, RepositoryKeyRing, RetiredSigningKey, SignedUnder, Version } from '../../models';
import { uniqueIndex } from '../unique-indexes';
import { collectionOptions } from './schema-options';

/**
 * isActive is derived from deletedAt, as in the SQLite adapter. Applications stored before update
 * signing keys lack the field, which reads as null; those stored before defaultVersionStatus lack it
 * until `npm run migrate` writes it, and read `published`.
 */
type FieldsAddedLater = 'updateSigningKey' | 'sparklePublicKey' | 'retiredSigningKeys' | 'licenceText' | 'licenceRevision' | 'displayName' | 'accentColour' | 'supportUrl' | 'logo';
export type ApplicationDoc = Omit<Application, 'isActive' | 'defaultVersionStatus' | FieldsAddedLater>
  & { defaultVersionStatus?: Application['defaultVersionStatus'] } & { [F in FieldsAddedLater]?: Application[F] }
  /** When the purge of its releases started (absent or null: not started); not part of the application record. */
  & { releasePurgeStartedAt?: Date | null };
/** `orderKey` is versionOrderKey(version) (shared/releases/version-order.ts): what listings sort by. */
export type VersionDoc = Version & { orderKey: string };
/** The fields versions gained with the release model. */
export type VersionReleaseField = 'channel' | 'status' | 'rolloutPercentage' | 'publishedAt' | 'orderKey';
/** The fields versions gained with Sparkle's appcast: absent on versions stored before, read as null and false. */
export type VersionSparkleField = 'bundleVersion' | 'minimumSystemVersion' | 'critical' | 'signedUnder';
/** A version as read: one stored before the release model lacks its fields until `npm run migrate` fills them in. */
export type StoredVersionDoc = Omit<VersionDoc, VersionReleaseField | VersionSparkleField>
  & Partial<Pick<VersionDoc, VersionReleaseField | VersionSparkleField>>;
/**
 * `live` marks files that reserve their name and MAIN slot (pending or available); failed files
 * release them. Files stored before platforms lack platform and arch until `npm run migrate`.
 */
export type FileDoc = FileRecord & { live: boolean };

export const applicationSchema = new Schema<ApplicationDoc>(
  {
    applicationId: String,
    name: String,
    description: String,
    tags: [String],
    customerIds: [String],
    updateSigningKey: String,
    sparklePublicKey: String,
    retiredSigningKeys: [new Schema<RetiredSigningKey>({ kind: String, key: String, keyId: String, retiredAt: Date }, { _id: false })],
    defaultVersionStatus: String,
    licenceText: String,
    licenceRevision: Number,
    displayName: String,
    accentColour: String,
    supportUrl: String,
    logo: new Schema<ApplicationLogo>({ contentType: String, size: Number, sha256: String, updatedAt: Date }, { _id: false }),
    createdAt: Date,
    updatedAt: Date,
    deletedAt: Date,
    releasePurgeStartedAt: Date,
  },
  collectionOptions('applications'),
);
applicationSchema.index({ applicationId: 1 }, uniqueIndex('unique_applicationId'));
// One index per listing filter, each ending in the listing order.
applicationSchema.index({ deletedAt: 1, createdAt: 1, applicationId: 1 });
applicationSchema.index({ createdAt: 1, applicationId: 1 });
applicationSchema.index({ tags: 1, createdAt: 1, applicationId: 1 });
applicationSchema.index({ customerIds: 1, createdAt: 1, applicationId: 1 });

/** One customer's acceptance of one licence revision; the unique index keeps the first. */
export const licenceAcceptanceSchema = new Schema<LicenceAcceptance>(
  {
    applicationId: String,
    customerId: String,
    revision: Number,
    acceptedAt: Date,
    clientIp: String,
  },
  collectionOptions('licenceAcceptances'),
);
licenceAcceptanceSchema.index({ applicationId: 1, customerId: 1, revision: 1 }, uniqueIndex('unique_licenceAcceptance'));
// A customer's deletion removes its acceptances.
licenceAcceptanceSchema.index({ customerId: 1 });

export const versionSchema = new Schema<VersionDoc>(
  {
    applicationId: String,
    version: String,
    releaseNotes: String,
    requiredTier: String,
    channel: String,
    status: String,
    rolloutPercentage: Number,
    publishedAt: Date,
    bundleVersion: String,
    minimumSystemVersion: String,
    critical: Boolean,
    yankReason: String,
    rollbackTo: String,
    signedUnder: new Schema<SignedUnder>({ minisign: String, sparkle: String }, { _id: false }),
    orderKey: String,
    createdAt: Date,
    updatedAt: Date,
  },
  collectionOptions('versions'),
);
versionSchema.index({ applicationId: 1, version: 1 }, uniqueIndex('unique_version'));
// Listings in the version order, newest first.
versionSchema.index({ applicationId: 1, orderKey: -1, createdAt: -1, version: -1 });

export const fileSchema = new Schema<FileDoc>(
  {
    fileId: String,
    applicationId: String,
    version: String,
    fileName: String,
    fileSize: Number,
    contentType: String,
    checksum: String,
    fileType: String,
    status: String,
    live: Boolean,
    storageKey: String,
    platform: String,
    arch: String,
    sha512: String,
    sha1: String,
    signatureProblem: String,
    // What a package says of itself (a .deb's control paragraph, an .rpm's header fields), as read at upload.
    packageInfo: Schema.Types.Mixed,
    createdAt: Date,
    updatedAt: Date,
  },
  collectionOptions('files'),
);
fileSchema.index({ fileId: 1 }, uniqueIndex('unique_fileId'));
fileSchema.index({ applicationId: 1, createdAt: 1, fileId: 1 });
// One live MAIN file per version, platform and arch. It replaces unique_mainFile (one per version),
// which `npm run migrate` drops (see unique-indexes.ts).
fileSchema.index(
  { applicationId: 1, version: 1, platform: 1, arch: 1 },
  { ...uniqueIndex('unique_mainFileOfTarget'), partialFilterExpression: { live: true, fileType: 'MAIN' } },
);
fileSchema.index(
  { applicationId: 1, version: 1, fileName: 1 },
  { ...uniqueIndex('unique_fileName'), partialFilterExpression: { live: true } },
);
// The digest backfill's pages: available files without a SHA-512 or a SHA-1 (null or missing), by
// fileId; one index per digest, which the query's $or reads and merges in fileId order.
// Whether another file points at a content-addressed object (fileObjectShared).
fileSchema.index({ storageKey: 1 });
fileSchema.index({ sha512: 1, fileId: 1 }, { partialFilterExpression: { status: 'available' } });
fileSchema.index({ sha1: 1, fileId: 1 }, { partialFilterExpression: { status: 'available' } });

/** An application's package-repository signing keys, one document per application, written by compare-and-set on its revision. */
export const repositoryKeyRingSchema = new Schema<RepositoryKeyRing>(
  {
    applicationId: String,
    revision: Number,
    keys: [{
      _id: false,
      fingerprint: String,
      publicKey: String,
      sealedPrivateKey: String,
      algorithm: String,
      origin: String,
      createdAt: Date,
      retiresAt: Date,
    }],
  },
  collectionOptions('repositoryKeys'),
);
repositoryKeyRingSchema.index({ applicationId: 1 }, uniqueIndex('unique_repositoryKeys'));
