import type { FilterQuery } from 'mongoose';
import { DuplicateError } from '../../errors';
import { publishedAtAfter, statusChange, type ReleaseStatus } from '../../releases/lifecycle';
import { uploadReleaseMismatch } from '../../releases/upload-release';
import { newestFirst, versionOrderKey } from '../../releases/version-order';
import { requireCount, requireRolloutPercentage } from '../bounds';
import type { FileRecord, FileStatus, SigningKeyKind, Version, VersionWithFiles } from '../models';
import type { StoreOptions } from '../options';
import { fileWithDefaults, newVersion } from '../record-defaults';
import type {
  PurgedReleases,
  FileDeletion, FileDigestUpdate, FilePublication, FilePublicationResult, VersionDeletion, VersionFilter, VersionPatch, VersionStore, VersionTransition,
  VersionUpsert,
} from '../store';
import { withFiles } from '../versions-with-files';
import type { MongoModels } from './models';
import { definedFields } from './patches';
import { toFile, toVersion } from './records';
import { channelFilter, statusFilter } from './release-field-filters';
import type { FileDoc, StoredVersionDoc, VersionDoc } from './schemas/catalog';
import { guardDuplicates } from './unique-indexes';

/** The version order (version-order.ts), newest first: the listing index's order. */
const NEWEST_FIRST = { orderKey: -1, createdAt: -1, version: -1 } as const;

/**
 * How often transitionVersion checks again after another transition of the version won the race.
 * Each retry follows a transition that succeeded, so only a version changed this often in the
 * meantime gets an error instead of an answer.
 */
const TRANSITION_ATTEMPTS = 50;

export class MongoVersionsAndFiles implements VersionStore {
  constructor(private readonly models: MongoModels, private readonly options: StoreOptions) {}

  async upsertVersion(applicationId: string, version: string, patch: VersionUpsert, at: Date): Promise<Version> {
    requireRolloutPercentage(patch.rolloutPercentage);
    const set = { ...patchFields(patch), updatedAt: at };
    const {
      releaseNotes, requiredTier, channel, status, rolloutPercentage, publishedAt, bundleVersion, minimumSystemVersion, critical, createdAt,
    } = newVersion(applicationId, version, patch, at, this.options);
    const created = {
      releaseNotes, requiredTier, channel, status, rolloutPercentage, publishedAt, bundleVersion, minimumSystemVersion, critical, createdAt,
      orderKey: versionOrderKey(version),
    };
    // A field may not be in both $set and $setOnInsert: a new version takes the patch's from $set.
    const onInsert = Object.fromEntries(Object.entries(created).filter(([field]) => !(field in set)));
    // An upsert whose filter is exactly the unique key is retried by the server when two of them race.
    const doc = await this.models.versions
      .findOneAndUpdate({ applicationId, version }, { $set: set, $setOnInsert: onInsert }, { upsert: true, new: true })
      .lean<StoredVersionDoc>();
    return toVersion(doc as StoredVersionDoc, this.options);
  }

  async getVersion(applicationId: string, version: string): Promise<Version | null> {
    const doc = await this.models.versions.findOne({ applicationId, version }).lean<StoredVersionDoc>();
    return doc ? toVersion(doc, this.options) : null;
  }

  async updateVersion(applicationId: string, version: string, patch: VersionPatch, at: Date): Promise<Version | null> {
    requireRolloutPercentage(patch.rolloutPercentage);
    const doc = await this.models.versions
      .findOneAndUpdate({ applicationId, version }, { $set: { ...patchFields(patch), updatedAt: at } }, { new: true })
      .lean<StoredVersionDoc>();
    return doc ? toVersion(doc, this.options) : null;
  }

  async transitionVersion(applicationId: string, version: string, to: ReleaseStatus, at: Date, patch: VersionPatch = {}): Promise<VersionTransition> {
    requireRolloutPercentage(patch.rolloutPercentage);
    for (let attempt = 1; attempt <= TRANSITION_ATTEMPTS; attempt += 1) {
      const doc = await this.models.versions.findOne({ applicationId, version }).lean<StoredVersionDoc>();
      if (!doc) return { outcome: 'not-found' };
      const current = toVersion(doc, this.options);
      const from = current.status;
      if (statusChange(from, to) === 'invalid') return { outcome: 'invalid-transition', from, to };
      const set = { ...patchFields(patch), status: to, publishedAt: publishedAtAfter(current.publishedAt, to, at), updatedAt: at };
      // Compare-and-set on the status just checked (null: stored before statuses, so published).
      const updated = await this.models.versions
        .findOneAndUpdate({ applicationId, version, status: doc.status ?? null }, { $set: set }, { new: true })
        .lean<StoredVersionDoc>();
      if (updated) return { outcome: 'applied', from, version: toVersion(updated, this.options) };
    }
    throw new Error(`version ${version} of ${applicationId} kept changing status: ${TRANSITION_ATTEMPTS} transitions to ${to} lost the race`);
  }

  async listVersions(applicationId: string, filter: VersionFilter = {}): Promise<VersionWithFiles[]> {
    const query: FilterQuery<VersionDoc> = { applicationId };
    if (filter.channels !== undefined) query.channel = channelFilter(filter.channels, this.options);
    if (filter.statuses !== undefined) query.status = statusFilter(filter.statuses);
    const docs = await this.models.versions.find(query).sort(NEWEST_FIRST).lean<StoredVersionDoc[]>();
    if (docs.length === 0) return [];
    const versions = docs.map((doc) => toVersion(doc, this.options));
    // A version stored without its key, or with one an earlier version order gave it, sorts out of
    // place in the database until `npm run migrate` gives it this release's: sorted here meanwhile.
    if (docs.some((doc) => doc.orderKey !== versionOrderKey(doc.version))) versions.sort(newestFirst);
    const files = await this.models.files.find({ applicationId }).sort({ createdAt: 1, fileId: 1 }).lean<FileDoc[]>();
    return withFiles(versions, files.map(toFile));
  }

  async insertFile(given: FileRecord): Promise<FileRecord> {
    const file = fileWithDefaults(given);
    const live = isLive(file.status);
    try {
      await guardDuplicates(this.models.files, () => this.models.files.create({ ...file, live }));
    } catch (error) {
      // Which index refuses first follows their creation order, which an upgraded database does
      // not share with a new one: a MAIN file colliding on both reports its MAIN slot either way.
      if (error instanceof DuplicateError && error.target === 'fileName' && live && file.fileType === 'MAIN'
        && await this.models.files.exists(mainSlot(file))) throw new DuplicateError('mainFile');
      throw error;
    }
    return file;
  }

  async getFile(fileId: string): Promise<FileRecord | null> {
    const doc = await this.models.files.findOne({ fileId }).lean<FileDoc>();
    return doc ? toFile(doc) : null;
  }

  async publishFile(fileId: string, publication: FilePublication, at: Date): Promise<FilePublicationResult> {
    const { checksum, sha512, sha1, release } = publication;
    const packageInfo = publication.packageInfo ?? null;
    const file = await this.getFile(fileId);
    if (file?.status !== 'pending' && file?.status !== 'available') return { outcome: 'not-pending', file };
    const existing = await this.getVersion(file.applicationId, file.version);
    if (existing && uploadReleaseMismatch(existing, release)) return { outcome: 'version-differs', version: existing };
    // The file first, conditionally: only the upload that makes it available (or finds it so, a
    // repeat) goes on to write the version, so one whose file was failed meanwhile writes nothing.
    const published = file.status === 'available' ? file : await this.models.files
      .findOneAndUpdate({ fileId, status: 'pending' }, { $set: { status: 'available', live: true, checksum, sha512, sha1, packageInfo, updatedAt: at } }, { new: true })
      .lean<FileDoc>()
      .then((doc) => (doc ? toFile(doc) : this.getFile(fileId)));
    if (published?.status !== 'available') return { outcome: 'not-pending', file: published };
    const { releaseNotes, requiredTier, channel, status, createdStatus } = release;
    const version = await this.upsertVersion(file.applicationId, file.version,
      { releaseNotes, requiredTier, initialChannel: channel, initialStatus: status ?? createdStatus }, at);
    return { outcome: 'published', file: published, version };
  }

  async deleteVersion(applicationId: string, version: string): Promise<VersionDeletion> {
    const current = await this.getVersion(applicationId, version);
    if (!current) return { outcome: 'not-found' };
    if (current.status !== 'draft') return { outcome: 'not-draft', version: current };
    // Conditional on the status: a publication that won the race keeps the version (and its files).
    const deleted = await this.models.versions.deleteOne({ applicationId, version, status: 'draft' });
    if (deleted.deletedCount === 0) {
      const now = await this.getVersion(applicationId, version);
      return now ? { outcome: 'not-draft', version: now } : { outcome: 'not-found' };
    }
    const docs = await this.models.files.find({ applicationId, version }).sort({ createdAt: 1, fileId: 1 }).lean<FileDoc[]>();
    await this.models.files.deleteMany({ fileId: { $in: docs.map((doc) => doc.fileId) } });
    await this.models.attestations.deleteMany({ fileId: { $in: docs.map((doc) => doc.fileId) } });
    return { outcome: 'deleted', version: current, files: docs.map(toFile) };
  }

  async deleteFile(fileId: string): Promise<FileDeletion> {
    const file = await this.getFile(fileId);
    if (!file) return { outcome: 'not-found' };
    if (file.status === 'pending') return { outcome: 'refused', file, reason: 'pending' };
    if (file.status === 'available') {
      const status = (await this.getVersion(file.applicationId, file.version))?.status;
      if (status === 'published' || status === 'yanked') return { outcome: 'refused', file, reason: status };
    }
    // Conditional on the status read: a file that changed meanwhile is judged again as it now is.
    const deleted = await this.models.files.deleteOne({ fileId, status: file.status });
    if (deleted.deletedCount === 1) await this.models.attestations.deleteMany({ fileId });
    return deleted.deletedCount === 1 ? { outcome: 'deleted', file } : this.deleteFile(fileId);
  }

  async deletePurgedReleases(applicationId: string): Promise<PurgedReleases | null> {
    // The mark is never removed once set, so deleting after reading it cannot race a restore.
    const marked = await this.models.applications.exists({ applicationId, releasePurgeStartedAt: { $ne: null } });
    if (!marked) return null;
    await this.models.attestations.deleteMany({ applicationId });
    const files = await this.models.files.deleteMany({ applicationId });
    const versions = await this.models.versions.deleteMany({ applicationId });
    return { versions: versions.deletedCount, files: files.deletedCount };
  }

  async setFileStatus(fileId: string, from: FileStatus, to: FileStatus, checksum: string | null, at: Date): Promise<FileRecord | null> {
    // Only a pending file moves: an available one is published bytes, a failed one is settled.
    if (from !== 'pending') return null;
    const set = { status: to, live: isLive(to), updatedAt: at, ...(checksum === null ? {} : { checksum }) };
    const doc = await guardDuplicates(this.models.files, () =>
      this.models.files.findOneAndUpdate({ fileId, status: from }, { $set: set }, { new: true }).lean<FileDoc>(),
    );
    return doc ? toFile(doc) : null;
  }

  async claimFileObject(fileId: string, storageKey: string): Promise<FileRecord | null> {
    const doc = await this.models.files.findOneAndUpdate({ fileId, status: 'pending' }, { $set: { storageKey } }, { new: true }).lean<FileDoc>();
    return doc ? toFile(doc) : null;
  }

  async fileObjectShared(storageKey: string, exceptFileId: string): Promise<boolean> {
    // Through the storageKey index: the documents of this key only.
    const doc = await this.models.files.findOne({ storageKey, fileId: { $ne: exceptFileId }, status: { $ne: 'failed' } }, { _id: 1 }).lean();
    return doc !== null;
  }

  async setFileDigests(fileId: string, digests: FileDigestUpdate): Promise<FileRecord | null> {
    // Fills in what is missing, each digest conditionally on its absence: a recorded digest is never replaced.
    await this.models.files.updateOne({ fileId, sha512: null }, { $set: { sha512: digests.sha512 } });
    await this.models.files.updateOne({ fileId, sha1: null }, { $set: { sha1: digests.sha1 } });
    return this.getFile(fileId);
  }

  async recordSigningKey(applicationId: string, version: string, kind: SigningKeyKind, key: string): Promise<Version | null> {
    const doc = await this.models.versions.findOneAndUpdate({ applicationId, version }, { $set: { [`signedUnder.${kind}`]: key } }, { new: true }).lean<StoredVersionDoc>();
    return doc ? toVersion(doc, this.options) : null;
  }

  async setSignatureProblem(fileId: string, problem: string | null): Promise<FileRecord | null> {
    const doc = await this.models.files.findOneAndUpdate({ fileId }, { $set: { signatureProblem: problem } }, { new: true }).lean<FileDoc>();
    return doc ? toFile(doc) : null;
  }

  async listFilesMissingDigests(limit: number, afterFileId?: string): Promise<FileRecord[]> {
    requireCount('limit', limit);
    // null also matches files stored before a digest was kept, which lack its field.
    const filter: FilterQuery<FileDoc> = { status: 'available', $or: [{ sha512: null }, { sha1: null }] };
    if (afterFileId !== undefined) filter.fileId = { $gt: afterFileId };
    const docs = await this.models.files.find(filter).sort({ fileId: 1 }).limit(limit).lean<FileDoc[]>();
    return docs.map(toFile);
  }
}

/** The fields of a version patch that are set (an upsert's initialStatus is not one: it only applies to a new version). */
function patchFields(patch: VersionPatch): VersionPatch {
  const { releaseNotes, requiredTier, channel, rolloutPercentage, bundleVersion, minimumSystemVersion, critical, yankReason, rollbackTo } = patch;
  return definedFields({ releaseNotes, requiredTier, channel, rolloutPercentage, bundleVersion, minimumSystemVersion, critical, yankReason, rollbackTo });
}

/** The live MAIN file of the file's version, platform and arch. */
const mainSlot = (file: FileRecord): FilterQuery<FileDoc> => ({
  applicationId: file.applicationId, version: file.version, platform: file.platform, arch: file.arch, live: true, fileType: 'MAIN',
});

const isLive = (status: FileStatus): boolean => status !== 'failed';
