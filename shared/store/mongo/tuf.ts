import { requireCount } from '../bounds';
import type { TufOnlineDocuments, TufRepositoryRecord, TufRootRecord } from '../models';
import type { TufStore } from '../store';
import type { MongoModels } from './models';
import { isDuplicateKeyError } from './unique-indexes';

interface StoredRepository extends Omit<TufRepositoryRecord, 'metadata'> {
  metadata: (Omit<TufOnlineDocuments, 'channels'> & { channels: Record<string, string> }) | null;
}

export class MongoTuf implements TufStore {
  constructor(private readonly models: MongoModels) {}

  async createTufRepository(record: TufRepositoryRecord): Promise<TufRepositoryRecord> {
    // An upsert that only inserts: a repository made first keeps its keys.
    await this.models.tufRepositories
      .updateOne({ applicationId: record.applicationId }, { $setOnInsert: record }, { upsert: true })
      .catch((error: unknown) => {
        if (!isDuplicateKeyError(error)) throw error;
      });
    return (await this.findTufRepository(record.applicationId))!;
  }

  async findTufRepository(applicationId: string): Promise<TufRepositoryRecord | null> {
    const doc = await this.models.tufRepositories.findOne({ applicationId }).lean<StoredRepository & { _id?: unknown }>();
    if (!doc) return null;
    const { targets, snapshot, timestamp } = doc.keys;
    return {
      applicationId: doc.applicationId,
      keys: { targets: storedKey(targets), snapshot: storedKey(snapshot), timestamp: storedKey(timestamp) },
      metadata: doc.metadata
        ? { targets: doc.metadata.targets, channels: { ...doc.metadata.channels }, snapshot: doc.metadata.snapshot, timestamp: doc.metadata.timestamp }
        : null,
      createdAt: doc.createdAt,
      updatedAt: doc.updatedAt,
    };
  }

  async replaceTufMetadata(applicationId: string, expectedTimestamp: string | null, metadata: TufOnlineDocuments, at: Date): Promise<boolean> {
    const filter = expectedTimestamp === null ? { applicationId, metadata: null } : { applicationId, 'metadata.timestamp': expectedTimestamp };
    const result = await this.models.tufRepositories.updateOne(filter, { $set: { metadata, updatedAt: at } });
    return result.matchedCount > 0;
  }

  async addTufRoot(root: TufRootRecord): Promise<boolean> {
    if (root.version !== 1 && !(await this.models.tufRoots.exists({ applicationId: root.applicationId, version: root.version - 1 }))) return false;
    try {
      // The unique (applicationId, version) index refuses a second root of one version.
      await this.models.tufRoots.create(root);
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async findTufRoot(applicationId: string, version: number): Promise<TufRootRecord | null> {
    const doc = await this.models.tufRoots.findOne({ applicationId, version }).lean<TufRootRecord>();
    return doc ? rootOf(doc) : null;
  }

  async latestTufRoot(applicationId: string): Promise<TufRootRecord | null> {
    const doc = await this.models.tufRoots.findOne({ applicationId }).sort({ version: -1 }).lean<TufRootRecord>();
    return doc ? rootOf(doc) : null;
  }

  async listTufRepositoryIds(limit: number, afterApplicationId?: string): Promise<string[]> {
    requireCount('limit', limit);
    const filter = afterApplicationId === undefined ? {} : { applicationId: { $gt: afterApplicationId } };
    const docs = await this.models.tufRepositories.find(filter, { applicationId: 1 }).sort({ applicationId: 1 }).limit(limit).lean<{ applicationId: string }[]>();
    return docs.map((doc) => doc.applicationId);
  }
}

function storedKey(key: TufRepositoryRecord['keys']['targets']): TufRepositoryRecord['keys']['targets'] {
  return { keyId: key.keyId, publicKey: key.publicKey, sealedPrivateKey: key.sealedPrivateKey };
}

function rootOf(doc: TufRootRecord): TufRootRecord {
  return { applicationId: doc.applicationId, version: doc.version, document: doc.document, createdAt: doc.createdAt };
}
