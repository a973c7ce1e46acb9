import { Schema } from 'mongoose';
import type { Application, FileRecord, Version } from '../../models';
import { uniqueIndex } from '../unique-indexes';
import { collectionOptions } from './schema-options';

/** isActive is derived from deletedAt, as in the SQLite adapter. */
export type ApplicationDoc = Omit<Application, 'isActive'>;
export type VersionDoc = Version;
/** `live` marks files that reserve their name and MAIN slot (pending or available); failed files release them. */
export type FileDoc = FileRecord & { live: boolean };

export const applicationSchema = new Schema<ApplicationDoc>(
  {
    applicationId: String,
    name: String,
    description: String,
    tags: [String],
    customerIds: [String],
    createdAt: Date,
    updatedAt: Date,
    deletedAt: Date,
  },
  collectionOptions('applications'),
);
applicationSchema.index({ applicationId: 1 }, uniqueIndex('unique_applicationId'));
// One index per listing filter, each ending in the listing order.
applicationSchema.index({ deletedAt: 1, createdAt: 1, applicationId: 1 });
applicationSchema.index({ createdAt: 1, applicationId: 1 });
applicationSchema.index({ tags: 1, createdAt: 1, applicationId: 1 });
applicationSchema.index({ customerIds: 1, createdAt: 1, applicationId: 1 });

export const versionSchema = new Schema<VersionDoc>(
  {
    applicationId: String,
    version: String,
    releaseNotes: String,
    requiredTier: String,
    createdAt: Date,
    updatedAt: Date,
  },
  collectionOptions('versions'),
);
versionSchema.index({ applicationId: 1, version: 1 }, uniqueIndex('unique_version'));
versionSchema.index({ applicationId: 1, createdAt: -1, version: -1 });

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
    createdAt: Date,
    updatedAt: Date,
  },
  collectionOptions('files'),
);
fileSchema.index({ fileId: 1 }, uniqueIndex('unique_fileId'));
fileSchema.index({ applicationId: 1, createdAt: 1, fileId: 1 });
// Declared (so created) before the name index: a MAIN file colliding on both is reported as 'mainFile', as in SQLite.
// Also serves findAvailableFile's lookup of a version's MAIN file.
fileSchema.index(
  { applicationId: 1, version: 1 },
  { ...uniqueIndex('unique_mainFile'), partialFilterExpression: { live: true, fileType: 'MAIN' } },
);
fileSchema.index(
  { applicationId: 1, version: 1, fileName: 1 },
  { ...uniqueIndex('unique_fileName'), partialFilterExpression: { live: true } },
);
