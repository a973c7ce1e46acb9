import type { FilterQuery } from 'mongoose';
import { requirePage } from '../bounds';
import type { Application, ApplicationLogo, LicenceAcceptance, RepositoryKey, RepositoryKeyRing } from '../models';
import type { ApplicationPatch, ApplicationQuery, LogoReplacement, Page, ApplicationStore, ReleasePurgeStart } from '../store';
import type { MongoModels } from './models';
import { definedFields } from './patches';
import { retiredAfterChange } from '../../releases/key-history';
import { toApplication } from './records';
import type { ApplicationDoc } from './schemas/catalog';
import { guardDuplicates, isDuplicateKeyError } from './unique-indexes';

const LISTING_ORDER = { createdAt: 1, applicationId: 1 } as const;

export class MongoApplications implements ApplicationStore {
  constructor(private readonly models: MongoModels) {}

  async createApplication(app: Application): Promise<Application> {
    const { isActive: _derivedFromDeletedAt, ...doc } = app;
    await guardDuplicates(this.models.applications, () => this.models.applications.create(doc));
    return app;
  }

  async getApplication(applicationId: string, options: { includeDeleted?: boolean } = {}): Promise<Application | null> {
    const doc = await this.models.applications.findOne({ applicationId }).lean<ApplicationDoc>();
    const app = doc ? toApplication(doc) : null;
    return app && (app.isActive || options.includeDeleted) ? app : null;
  }

  async listApplications(query: ApplicationQuery): Promise<Page<Application>> {
    requirePage(query.page, query.pageSize);
    const filter: FilterQuery<ApplicationDoc> = {};
    if (!query.includeDeleted) filter.deletedAt = null;
    if (query.tag !== undefined) filter.tags = query.tag;
    if (query.customerId !== undefined) filter.customerIds = query.customerId;
    if (query.applicationIds !== undefined) filter.applicationId = { $in: [...query.applicationIds] };
    if (query.search !== undefined) {
      // An escaped (literal) case-insensitive regex no index can serve: the query walks the listing-order
      // index and tests each live application's name and id, a cost bounded by the vendor's applications.
      const text = new RegExp(escapeRegExp(query.search), 'i');
      filter.$or = [{ name: text }, { applicationId: text }];
    }
    const count = this.models.applications.countDocuments(filter);
    // An unfiltered count would scan the collection; the listing index gives the same total.
    if (Object.keys(filter).length === 0) count.hint(LISTING_ORDER);
    const [total, docs] = await Promise.all([
      count,
      this.models.applications
        .find(filter)
        .sort(LISTING_ORDER)
        .skip((query.page - 1) * query.pageSize)
        .limit(query.pageSize)
        .lean<ApplicationDoc[]>(),
    ]);
    return { items: docs.map(toApplication), total };
  }

  async updateApplication(applicationId: string, patch: ApplicationPatch, at: Date): Promise<Application | null> {
    const { licenceRevision, ...fields } = patch;
    // $max: the revision is raised over the one stored, in the same write, never lowered.
    const raise = licenceRevision != null ? { $max: { licenceRevision } } : {};
    if (fields.updateSigningKey === undefined && fields.sparklePublicKey === undefined) {
      const doc = await this.models.applications
        .findOneAndUpdate({ applicationId, deletedAt: null }, { $set: { ...definedFields(fields), updatedAt: at }, ...raise }, { new: true })
        .lean<ApplicationDoc>();
      return doc ? toApplication(doc) : null;
    }
    // A key replaced is kept as retired: written only if the keys are still those read (compare and
    // set), else read again, so two changes at once each retire the key they replaced.
    for (;;) {
      const before = await this.models.applications.findOne({ applicationId, deletedAt: null }).lean<ApplicationDoc>();
      if (!before) return null;
      const current = toApplication(before);
      const retired = retiredAfterChange(current, fields, at);
      const doc = await this.models.applications.findOneAndUpdate(
        { applicationId, deletedAt: null, updateSigningKey: current.updateSigningKey, sparklePublicKey: current.sparklePublicKey },
        { $set: { ...definedFields(fields), ...(retired ? { retiredSigningKeys: retired } : {}), updatedAt: at }, ...raise },
        { new: true },
      ).lean<ApplicationDoc>();
      if (doc) return toApplication(doc);
    }
  }

  async replaceApplicationLogo(applicationId: string, logo: ApplicationLogo | null, at: Date): Promise<LogoReplacement | null> {
    // The document as it was before this write: its logo is the one this write replaced.
    const before = await this.models.applications
      .findOneAndUpdate({ applicationId, deletedAt: null }, { $set: { logo, updatedAt: at } }, { new: false })
      .lean<ApplicationDoc>();
    if (!before) return null;
    return { application: toApplication({ ...before, logo, updatedAt: at }), previous: toApplication(before).logo };
  }

  async recordLicenceAcceptance(acceptance: LicenceAcceptance): Promise<LicenceAcceptance> {
    const { applicationId, customerId, revision } = acceptance;
    try {
      // $setOnInsert: a revision accepted before keeps its first acceptance.
      await this.models.licenceAcceptances.updateOne({ applicationId, customerId, revision }, { $setOnInsert: acceptance }, { upsert: true });
    } catch (error) {
      // Two upserts of one key at once: the unique index lets one insert, and the other finds it.
      if (!isDuplicateKeyError(error)) throw error;
    }
    return (await this.getLicenceAcceptance(applicationId, customerId, revision)) as LicenceAcceptance;
  }

  async getLicenceAcceptance(applicationId: string, customerId: string, revision: number): Promise<LicenceAcceptance | null> {
    const doc = await this.models.licenceAcceptances.findOne({ applicationId, customerId, revision }).lean<LicenceAcceptance>();
    return doc && { applicationId: doc.applicationId, customerId: doc.customerId, revision: doc.revision, acceptedAt: doc.acceptedAt, clientIp: doc.clientIp ?? null };
  }

  async getRepositoryKeys(applicationId: string): Promise<RepositoryKeyRing | null> {
    const doc = await this.models.repositoryKeys.findOne({ applicationId }).lean<RepositoryKeyRing>();
    return doc && toKeyRing(doc);
  }

  async replaceRepositoryKeys(applicationId: string, expectedRevision: number, keys: readonly RepositoryKey[]): Promise<RepositoryKeyRing | null> {
    const stored = keys.map((key) => ({ ...key }));
    if (expectedRevision === 0) {
      try {
        await this.models.repositoryKeys.create({ applicationId, revision: 1, keys: stored });
      } catch (error) {
        // Another writer created the ring first: its keys stand.
        if (isDuplicateKeyError(error)) return null;
        throw error;
      }
      return { applicationId, revision: 1, keys: stored };
    }
    const doc = await this.models.repositoryKeys
      .findOneAndUpdate({ applicationId, revision: expectedRevision }, { $set: { keys: stored }, $inc: { revision: 1 } }, { new: true })
      .lean<RepositoryKeyRing>();
    return doc && toKeyRing(doc);
  }

  /** $push and $pull change the one customer atomically, leaving the others to concurrent changes. */
  async grantApplicationAccess(applicationId: string, customerId: string, at: Date): Promise<Application | null> {
    await this.models.applications.updateOne(
      { applicationId, deletedAt: null, customerIds: { $ne: customerId } },
      { $push: { customerIds: customerId }, $set: { updatedAt: at } },
    );
    return this.getApplication(applicationId);
  }

  async revokeApplicationAccess(applicationId: string, customerId: string, at: Date): Promise<Application | null> {
    await this.models.applications.updateOne(
      { applicationId, deletedAt: null, customerIds: customerId },
      { $pull: { customerIds: customerId }, $set: { updatedAt: at } },
    );
    return this.getApplication(applicationId);
  }

  async softDeleteApplication(applicationId: string, at: Date): Promise<Application | null> {
    return this.change({ applicationId, deletedAt: null }, { deletedAt: at, updatedAt: at });
  }

  async restoreApplication(applicationId: string, at: Date): Promise<Application | null> {
    return this.change({ applicationId, deletedAt: { $ne: null }, releasePurgeStartedAt: null }, { deletedAt: null, updatedAt: at });
  }

  async startReleasePurge(applicationId: string, deletedBefore: Date, at: Date): Promise<ReleasePurgeStart> {
    // The check and the mark in one conditional update: a restore between them is impossible.
    await this.models.applications.updateOne(
      { applicationId, deletedAt: { $ne: null, $lte: deletedBefore }, releasePurgeStartedAt: null },
      { $set: { releasePurgeStartedAt: at } },
    );
    const doc = await this.models.applications.findOne({ applicationId }).lean<ApplicationDoc>();
    if (!doc) return { outcome: 'not-found' };
    const application = toApplication(doc);
    if (doc.releasePurgeStartedAt) return { outcome: 'started', application, startedAt: doc.releasePurgeStartedAt };
    return { outcome: application.deletedAt === null ? 'not-deleted' : 'too-recent', application };
  }

  async releasePurgeStartedAt(applicationId: string): Promise<Date | null> {
    const doc = await this.models.applications.findOne({ applicationId }, { releasePurgeStartedAt: 1 }).lean<ApplicationDoc>();
    return doc?.releasePurgeStartedAt ?? null;
  }

  /** Sets fields on the application matching `filter`, atomically; null when none matches. */
  private async change(filter: FilterQuery<ApplicationDoc>, set: Partial<ApplicationDoc>): Promise<Application | null> {
    const doc = await this.models.applications
      .findOneAndUpdate(filter, { $set: set }, { new: true })
      .lean<ApplicationDoc>();
    return doc ? toApplication(doc) : null;
  }
}

/** `text` as a regex matching itself literally. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function toKeyRing(doc: RepositoryKeyRing): RepositoryKeyRing {
  return {
    applicationId: doc.applicationId,
    revision: doc.revision,
    keys: doc.keys.map((key) => ({
      fingerprint: key.fingerprint, publicKey: key.publicKey, sealedPrivateKey: key.sealedPrivateKey, algorithm: key.algorithm,
      origin: key.origin, createdAt: key.createdAt, retiresAt: key.retiresAt ?? null,
    })),
  };
}
