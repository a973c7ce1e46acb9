import { Schema } from 'mongoose';
import type { TufRepositoryRecord, TufRootRecord } from '../../models';
import { uniqueIndex } from '../unique-indexes';
import { collectionOptions } from './schema-options';

export type TufRepositoryDoc = TufRepositoryRecord;
export type TufRootDoc = TufRootRecord;

const storedKey = { keyId: String, publicKey: String, sealedPrivateKey: String };

/** One document per application: its online keys (private halves sealed) and its online metadata. */
export const tufRepositorySchema = new Schema<TufRepositoryDoc>(
  {
    applicationId: String,
    keys: { targets: storedKey, snapshot: storedKey, timestamp: storedKey },
    // The documents as served: kept as strings so their bytes (and the hashes over them) never change.
    metadata: { type: { targets: String, channels: { type: Map, of: String }, snapshot: String, timestamp: String }, default: null },
    createdAt: Date,
    updatedAt: Date,
  },
  collectionOptions('tufRepositories'),
);
tufRepositorySchema.index({ applicationId: 1 }, uniqueIndex('unique_tufRepository'));

/** One document per root the vendor uploaded. */
export const tufRootSchema = new Schema<TufRootDoc>(
  { applicationId: String, version: Number, document: String, createdAt: Date },
  collectionOptions('tufRoots'),
);
tufRootSchema.index({ applicationId: 1, version: 1 }, uniqueIndex('unique_tufRoot'));
