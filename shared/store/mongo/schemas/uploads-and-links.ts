import { Schema } from 'mongoose';
import type { ShareLink, UploadSession } from '../../models';
import { uniqueIndex } from '../unique-indexes';
import { collectionOptions } from './schema-options';

/** The fields sessions gained with the release model, and with multipart uploads. */
export type SessionReleaseField = 'platform' | 'arch' | 'channel' | 'versionStatus' | 'multipart';
/** A session as read: one stored before the release model, or before multipart uploads, lacks their fields. */
export type UploadSessionDoc = Omit<UploadSession, SessionReleaseField> & Partial<Pick<UploadSession, SessionReleaseField>>;
/** A link as read: one stored before share-link caps lacks their fields (no cap, not counted). */
export type ShareLinkDoc = Omit<ShareLink, 'maxDownloads' | 'downloadCount'> & Partial<Pick<ShareLink, 'maxDownloads' | 'downloadCount'>>;

export const uploadSessionSchema = new Schema<UploadSessionDoc>(
  {
    uploadId: String,
    applicationId: String,
    version: String,
    fileName: String,
    fileSize: Number,
    contentType: String,
    fileType: String,
    releaseNotes: String,
    requiredTier: String,
    platform: String,
    arch: String,
    channel: String,
    versionStatus: String,
    fileId: String,
    storageKey: String,
    multipart: { type: new Schema({ storageUploadId: String, partSize: Number }, { _id: false }), default: null },
    status: String,
    expectedChecksum: String,
    failureReason: String,
    expiresAt: Date,
    createdAt: Date,
    updatedAt: Date,
  },
  collectionOptions('uploadSessions'),
);
uploadSessionSchema.index({ uploadId: 1 }, uniqueIndex('unique_uploadId'));
uploadSessionSchema.index({ status: 1, expiresAt: 1 });

export const shareLinkSchema = new Schema<ShareLinkDoc>(
  {
    tokenHash: String,
    customerId: String,
    applicationId: String,
    version: String,
    fileId: String,
    expiresAt: Date,
    revokedAt: Date,
    expiredAt: Date,
    maxDownloads: Number,
    downloadCount: Number,
    createdAt: Date,
  },
  collectionOptions('shareLinks'),
);
shareLinkSchema.index({ tokenHash: 1 }, uniqueIndex('unique_tokenHash'));
shareLinkSchema.index({ expiresAt: 1 });
shareLinkSchema.index({ customerId: 1, createdAt: -1, tokenHash: -1 });
