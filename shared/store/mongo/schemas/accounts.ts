import { Schema } from 'mongoose';
import type { AccessToken, AdminKey, ApiKey, Customer } from '../../models';
import { uniqueIndex } from '../unique-indexes';
import { collectionOptions } from './schema-options';

export type CustomerDoc = Customer;
export type ApiKeyDoc = ApiKey;
export type AdminKeyDoc = AdminKey;

export const customerSchema = new Schema<CustomerDoc>(
  {
    customerId: String,
    name: String,
    tier: String,
    isActive: Boolean,
    notes: String,
    updatesUntil: Date,
    versionRange: String,
    createdAt: Date,
    updatedAt: Date,
  },
  collectionOptions('customers'),
);
customerSchema.index({ customerId: 1 }, uniqueIndex('unique_customerId'));
customerSchema.index({ createdAt: 1, customerId: 1 });
// The search's prefix match on the name (an anchored pattern reads index keys, not documents).
customerSchema.index({ name: 1 });

export const apiKeySchema = new Schema<ApiKeyDoc>(
  {
    keyId: String,
    customerId: String,
    keyHash: String,
    prefix: String,
    createdAt: Date,
    lastUsedAt: Date,
    revokedAt: Date,
  },
  collectionOptions('apiKeys'),
);
apiKeySchema.index({ keyId: 1 }, uniqueIndex('unique_keyId'));
apiKeySchema.index({ keyHash: 1 }, uniqueIndex('unique_keyHash'));
apiKeySchema.index({ customerId: 1, revokedAt: 1, createdAt: 1, keyId: 1 });

export const adminKeySchema = new Schema<AdminKeyDoc>(
  {
    keyId: String,
    name: String,
    keyHash: String,
    prefix: String,
    scopes: [String],
    // null (every application) stays null instead of becoming an empty list.
    applicationIds: { type: [String], default: undefined },
    createdAt: Date,
    expiresAt: Date,
    lastUsedAt: Date,
    revokedAt: Date,
  },
  collectionOptions('adminKeys'),
);
adminKeySchema.index({ keyId: 1 }, uniqueIndex('unique_adminKeyId'));
adminKeySchema.index({ keyHash: 1 }, uniqueIndex('unique_adminKeyHash'));
// The listing of active keys, in its order.
adminKeySchema.index({ revokedAt: 1, createdAt: 1, keyId: 1 });

export type AccessTokenDoc = AccessToken;

export const accessTokenSchema = new Schema<AccessTokenDoc>(
  {
    tokenId: String,
    customerId: String,
    tokenHash: String,
    prefix: String,
    name: String,
    maxDownloads: Number,
    maxClients: Number,
    maxBytes: Number,
    validFrom: Date,
    validUntil: Date,
    // null (no restriction) stays null instead of becoming an empty list.
    applications: { type: [String], default: undefined },
    channels: { type: [String], default: undefined },
    platforms: { type: [String], default: undefined },
    resetEvery: String,
    updatesUntil: Date,
    versionRange: String,
    createdAt: Date,
    updatedAt: Date,
    lastUsedAt: Date,
    revokedAt: Date,
  },
  collectionOptions('accessTokens'),
);
accessTokenSchema.index({ tokenId: 1 }, uniqueIndex('unique_accessTokenId'));
accessTokenSchema.index({ tokenHash: 1 }, uniqueIndex('unique_accessTokenHash'));
// A customer's active tokens, in the listing's order.
accessTokenSchema.index({ customerId: 1, revokedAt: 1, createdAt: 1, tokenId: 1 });

/** A token's counts in one period; `clients` holds the keyed hashes of the distinct client addresses. */
export interface AccessTokenUsageDoc {
  tokenId: string;
  periodStart: Date;
  downloads: number;
  bytes: number;
  clients: string[];
}

export const accessTokenUsageSchema = new Schema<AccessTokenUsageDoc>(
  {
    tokenId: String,
    periodStart: Date,
    downloads: Number,
    bytes: Number,
    clients: [String],
  },
  collectionOptions('accessTokenUsage'),
);
accessTokenUsageSchema.index({ tokenId: 1, periodStart: 1 }, uniqueIndex('unique_tokenUsage'));
