import type { FileRecord, FileStatus, Version, VersionWithFiles } from '../models';
import type { Store, VersionPatch } from '../store';
import type { MongoModels } from './models';
import { definedFields } from './patches';
import { toFile, toVersion } from './records';
import type { FileDoc, VersionDoc } from './schemas/catalog';
import { guardDuplicates } from './unique-indexes';

type VersionAndFileMethods = Pick<Store,
  'upsertVersion' | 'getVersion' | 'updateVersion' | 'listVersions' | 'insertFile' | 'getFile' | 'findAvailableFile' | 'setFileStatus'>;

export class MongoVersionsAndFiles implements VersionAndFileMethods {
  constructor(private readonly models: MongoModels) {}

  async upsertVersion(applicationId: string, version: string, patch: VersionPatch, at: Date): Promise<Version> {
    const set = { ...definedFields(patch), updatedAt: at };
    const omittedAsNull = Object.fromEntries(
      (['releaseNotes', 'requiredTier'] as const).filter((field) => !(field in set)).map((field) => [field, null]),
    );
    // An upsert whose filter is exactly the unique key is retried by the server when two of them race.
    const doc = await this.models.versions
      .findOneAndUpdate(
        { applicationId, version },
        { $set: set, $setOnInsert: { ...omittedAsNull, createdAt: at } },
        { upsert: true, new: true },
      )
      .lean<VersionDoc>();
    return toVersion(doc as VersionDoc);
  }

  async getVersion(applicationId: string, version: string): Promise<Version | null> {
    const doc = await this.models.versions.findOne({ applicationId, version }).lean<VersionDoc>();
    return doc ? toVersion(doc) : null;
  }

  async updateVersion(applicationId: string, version: string, patch: VersionPatch, at: Date): Promise<Version | null> {
    const doc = await this.models.versions
      .findOneAndUpdate({ applicationId, version }, { $set: { ...definedFields(patch), updatedAt: at } }, { new: true })
      .lean<VersionDoc>();
    return doc ? toVersion(doc) : null;
  }

  async listVersions(applicationId: string): Promise<VersionWithFiles[]> {
    const [versions, files] = await Promise.all([
      this.models.versions.find({ applicationId }).sort({ createdAt: -1, version: -1 }).lean<VersionDoc[]>(),
      this.models.files.find({ applicationId }).sort({ createdAt: 1, fileId: 1 }).lean<FileDoc[]>(),
    ]);
    const records = files.map(toFile);
    return versions.map((v) => ({ ...toVersion(v), files: records.filter((f) => f.version === v.version) }));
  }

  async insertFile(file: FileRecord): Promise<FileRecord> {
    await guardDuplicates(this.models.files, () => this.models.files.create({ ...file, live: isLive(file.status) }));
    return file;
  }

  async getFile(fileId: string): Promise<FileRecord | null> {
    const doc = await this.models.files.findOne({ fileId }).lean<FileDoc>();
    return doc ? toFile(doc) : null;
  }

  async findAvailableFile(applicationId: string, version: string, fileId?: string): Promise<FileRecord | null> {
    // `live` and fileType in the MAIN lookup let it use the partial MAIN index.
    const filter = fileId === undefined
      ? { applicationId, version, live: true, fileType: 'MAIN', status: 'available' }
      : { fileId, applicationId, version, status: 'available' };
    const doc = await this.models.files.findOne(filter).lean<FileDoc>();
    return doc ? toFile(doc) : null;
  }

  async setFileStatus(fileId: string, from: FileStatus, to: FileStatus, checksum: string | null, at: Date): Promise<FileRecord | null> {
    const set = { status: to, live: isLive(to), updatedAt: at, ...(checksum === null ? {} : { checksum }) };
    const doc = await guardDuplicates(this.models.files, () =>
      this.models.files.findOneAndUpdate({ fileId, status: from }, { $set: set }, { new: true }).lean<FileDoc>(),
    );
    return doc ? toFile(doc) : null;
  }
}

const isLive = (status: FileStatus): boolean => status !== 'failed';
