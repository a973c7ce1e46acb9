import { requireCount } from '../bounds';
import type { UploadSession, UploadStatus } from '../models';
import { sessionWithDefaults } from '../record-defaults';
import type { NewUploadSession, UploadSessionPatch, UploadStore } from '../store';
import type { MongoModels } from './models';
import { definedFields } from './patches';
import { toUploadSession } from './records';
import type { UploadSessionDoc } from './schemas/uploads-and-links';
import { guardDuplicates } from './unique-indexes';

/** Large and multipart upload sessions, which expire when their upload is not finished in time. */
export class MongoUploads implements UploadStore {
  constructor(private readonly models: MongoModels) {}

  async createUploadSession(given: NewUploadSession): Promise<UploadSession> {
    const session = sessionWithDefaults(given);
    await guardDuplicates(this.models.uploadSessions, () => this.models.uploadSessions.create(session));
    return session;
  }

  async getUploadSession(uploadId: string): Promise<UploadSession | null> {
    const doc = await this.models.uploadSessions.findOne({ uploadId }).lean<UploadSessionDoc>();
    return doc ? toUploadSession(doc) : null;
  }

  async updateUploadSession(uploadId: string, from: UploadStatus[], patch: UploadSessionPatch, at: Date): Promise<UploadSession | null> {
    const doc = await this.models.uploadSessions
      .findOneAndUpdate(
        { uploadId, status: { $in: from } },
        { $set: { ...definedFields(patch), updatedAt: at } },
        { new: true },
      )
      .lean<UploadSessionDoc>();
    return doc ? toUploadSession(doc) : null;
  }

  async listExpiredUploadSessions(now: Date, limit: number): Promise<UploadSession[]> {
    requireCount('limit', limit);
    const docs = await this.models.uploadSessions
      .find({ status: 'issued', expiresAt: { $lte: now } })
      .sort({ expiresAt: 1 })
      .limit(limit)
      .lean<UploadSessionDoc[]>();
    return docs.map(toUploadSession);
  }
}
