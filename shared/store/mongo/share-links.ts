import { requireCount } from '../bounds';
import type { ShareLink } from '../models';
import type { ShareLinkStore } from '../store';
import type { MongoModels } from './models';
import { toShareLink } from './records';
import type { ShareLinkDoc } from './schemas/uploads-and-links';
import { guardDuplicates } from './unique-indexes';

/** Share links: expiring download links, with their counted uses. */
export class MongoShareLinks implements ShareLinkStore {
  constructor(private readonly models: MongoModels) {}

  async createShareLink(link: ShareLink): Promise<ShareLink> {
    await guardDuplicates(this.models.shareLinks, () => this.models.shareLinks.create(link));
    return link;
  }

  async listShareLinks(customerId: string, limit: number): Promise<ShareLink[]> {
    requireCount('limit', limit);
    const docs = await this.models.shareLinks.find({ customerId }).sort({ createdAt: -1, tokenHash: -1 }).limit(limit).lean<ShareLinkDoc[]>();
    return docs.map(toShareLink);
  }

  async getShareLink(tokenHash: string): Promise<ShareLink | null> {
    const doc = await this.models.shareLinks.findOne({ tokenHash }).lean<ShareLinkDoc>();
    return doc ? toShareLink(doc) : null;
  }

  async revokeShareLink(tokenHash: string, customerId: string, at: Date): Promise<ShareLink | null> {
    const doc = await this.models.shareLinks
      .findOneAndUpdate({ tokenHash, customerId, revokedAt: null }, { $set: { revokedAt: at } }, { new: true })
      .lean<ShareLinkDoc>();
    return doc ? toShareLink(doc) : null;
  }

  async markShareLinkExpired(tokenHash: string, at: Date): Promise<void> {
    await this.models.shareLinks.updateOne(
      { tokenHash, expiredAt: null, expiresAt: { $lte: at } },
      { $set: { expiredAt: at } },
    );
  }

  async countShareLinkUse(tokenHash: string): Promise<ShareLink | null> {
    // One document by its unique token index; the comparison of its two fields is checked in the same atomic update.
    const doc = await this.models.shareLinks
      .findOneAndUpdate(
        { tokenHash, maxDownloads: { $type: 'number' }, $expr: { $lt: [{ $ifNull: ['$downloadCount', 0] }, '$maxDownloads'] } },
        { $inc: { downloadCount: 1 } },
        { new: true },
      )
      .lean<ShareLinkDoc>();
    return doc ? toShareLink(doc) : null;
  }

  async uncountShareLinkUse(tokenHash: string): Promise<void> {
    await this.models.shareLinks.updateOne({ tokenHash, downloadCount: { $gt: 0 } }, { $inc: { downloadCount: -1 } });
  }

  async purgeShareLinks(before: Date, limit: number): Promise<number> {
    requireCount('limit', limit);
    const expired = await this.models.shareLinks
      .find({ expiresAt: { $lt: before } }, { _id: 1 })
      .limit(limit)
      .lean();
    const { deletedCount } = await this.models.shareLinks.deleteMany({ _id: { $in: expired.map((link) => link._id) } });
    return deletedCount;
  }
}
