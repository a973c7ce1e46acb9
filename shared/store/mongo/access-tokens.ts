import type { FilterQuery } from 'mongoose';
import type { AccessToken, AccessTokenUsage, TokenUse, TokenUseOutcome } from '../models';
import type { AccessTokenPatch, AccessTokenStore } from '../store';
import { limitPassed } from '../token-use';
import type { MongoModels } from './models';
import { definedFields } from './patches';
import type { AccessTokenDoc, AccessTokenUsageDoc } from './schemas/accounts';
import { guardDuplicates, isDuplicateKeyError } from './unique-indexes';

const NO_USAGE: AccessTokenUsage = Object.freeze({ downloads: 0, clients: 0, bytes: 0 });
/** A refused count is read back to name its limit; a count changed in between (a download given back) is tried again this many times. */
const COUNT_ATTEMPTS = 5;

/** Customers' access tokens, and their counts per period in one document each. */
export class MongoAccessTokens implements AccessTokenStore {
  constructor(private readonly models: MongoModels) {}

  async createAccessToken(token: AccessToken): Promise<AccessToken> {
    await guardDuplicates(this.models.accessTokens, () => this.models.accessTokens.create(token));
    return token;
  }

  async listAccessTokens(customerId: string): Promise<AccessToken[]> {
    const docs = await this.models.accessTokens.find({ customerId, revokedAt: null }).sort({ createdAt: 1, tokenId: 1 }).lean<AccessTokenDoc[]>();
    return docs.map(toAccessToken);
  }

  async getAccessToken(customerId: string, tokenId: string): Promise<AccessToken | null> {
    const doc = await this.models.accessTokens.findOne({ tokenId, customerId }).lean<AccessTokenDoc>();
    return doc ? toAccessToken(doc) : null;
  }

  async findAccessTokenByHash(tokenHash: string): Promise<AccessToken | null> {
    const doc = await this.models.accessTokens.findOne({ tokenHash }).lean<AccessTokenDoc>();
    return doc ? toAccessToken(doc) : null;
  }

  async updateAccessToken(customerId: string, tokenId: string, patch: AccessTokenPatch, at: Date): Promise<AccessToken | null> {
    const doc = await this.models.accessTokens
      .findOneAndUpdate({ tokenId, customerId, revokedAt: null }, { $set: { ...definedFields(patch), updatedAt: at } }, { new: true })
      .lean<AccessTokenDoc>();
    return doc ? toAccessToken(doc) : null;
  }

  async revokeAccessToken(customerId: string, tokenId: string, at: Date): Promise<AccessToken | null> {
    const doc = await this.models.accessTokens
      .findOneAndUpdate({ tokenId, customerId, revokedAt: null }, { $set: { revokedAt: at } }, { new: true })
      .lean<AccessTokenDoc>();
    return doc ? toAccessToken(doc) : null;
  }

  async touchAccessToken(tokenId: string, at: Date): Promise<void> {
    await this.models.accessTokens.updateOne({ tokenId }, { $max: { lastUsedAt: at } });
  }

  async getAccessTokenUsage(tokenId: string, periodStart: Date): Promise<AccessTokenUsage> {
    const doc = await this.models.accessTokenUsage.findOne({ tokenId, periodStart }).lean<AccessTokenUsageDoc>();
    return doc ? usageOf(doc) : NO_USAGE;
  }

  /**
   * The period's document is made first (an upsert that writes nothing when it exists), then counted
   * in one conditional update whose filter holds every limit: the download count under its cap, the
   * bytes with room for this file, and the client either known or with room in the list. Only when
   * that update matches nothing is the document read, to name the limit.
   */
  async countAccessTokenUse(use: TokenUse): Promise<TokenUseOutcome> {
    const { tokenId, periodStart, clientHash } = use;
    await this.openPeriod(tokenId, periodStart);
    const filter: FilterQuery<AccessTokenUsageDoc> = { tokenId, periodStart };
    if (use.maxDownloads !== null) filter.downloads = { $lt: use.maxDownloads };
    if (use.maxBytes !== null) filter.bytes = { $lte: use.maxBytes - use.bytes };
    if (use.maxClients !== null) filter.$or = [{ clients: clientHash }, { [`clients.${use.maxClients - 1}`]: { $exists: false } }];
    for (let attempt = 0; attempt < COUNT_ATTEMPTS; attempt += 1) {
      const counted = await this.models.accessTokenUsage
        .findOneAndUpdate(filter, { $inc: { downloads: use.downloads, bytes: use.bytes }, $addToSet: { clients: clientHash } }, { new: true })
        .lean<AccessTokenUsageDoc>();
      if (counted) return { outcome: 'counted', usage: usageOf(counted) };
      const current = await this.models.accessTokenUsage.findOne({ tokenId, periodStart }).lean<AccessTokenUsageDoc>();
      const usage = current ? usageOf(current) : NO_USAGE;
      const limit = limitPassed(use, usage, current?.clients.includes(clientHash) ?? false);
      if (limit) return { outcome: 'refused', limit, usage };
    }
    throw new Error(`the use of access token ${tokenId} could not be counted`);
  }

  async uncountAccessTokenUse(tokenId: string, periodStart: Date, bytes: number, downloads: 0 | 1): Promise<void> {
    // The bytes were added with the download, so they are there to take back.
    await this.models.accessTokenUsage.updateOne(
      { tokenId, periodStart, downloads: { $gte: downloads }, bytes: { $gte: bytes } },
      { $inc: { downloads: -downloads, bytes: -bytes } },
    );
  }

  /** Makes the period's document if it is not there; a new period drops the documents of earlier ones. */
  private async openPeriod(tokenId: string, periodStart: Date): Promise<void> {
    try {
      const { upsertedCount } = await this.models.accessTokenUsage.updateOne(
        { tokenId, periodStart },
        { $setOnInsert: { downloads: 0, bytes: 0, clients: [] } },
        { upsert: true },
      );
      if (upsertedCount > 0) await this.models.accessTokenUsage.deleteMany({ tokenId, periodStart: { $lt: periodStart } });
    } catch (error) {
      // Another process made it between this upsert's read and its insert.
      if (!isDuplicateKeyError(error)) throw error;
    }
  }
}

function usageOf(doc: AccessTokenUsageDoc): AccessTokenUsage {
  return { downloads: doc.downloads, clients: doc.clients.length, bytes: doc.bytes };
}

const orNull = <T>(value: T | null | undefined): T | null => value ?? null;

function toAccessToken(doc: AccessTokenDoc): AccessToken {
  return {
    tokenId: doc.tokenId,
    customerId: doc.customerId,
    tokenHash: doc.tokenHash,
    prefix: doc.prefix,
    name: orNull(doc.name),
    maxDownloads: orNull(doc.maxDownloads),
    maxClients: orNull(doc.maxClients),
    maxBytes: orNull(doc.maxBytes),
    validFrom: orNull(doc.validFrom),
    validUntil: orNull(doc.validUntil),
    applications: doc.applications ? [...doc.applications] : null,
    channels: doc.channels ? [...doc.channels] : null,
    platforms: doc.platforms ? [...doc.platforms] : null,
    resetEvery: orNull(doc.resetEvery),
    updatesUntil: orNull(doc.updatesUntil),
    versionRange: orNull(doc.versionRange),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    lastUsedAt: orNull(doc.lastUsedAt),
    revokedAt: orNull(doc.revokedAt),
  };
}
