import { Schema } from 'mongoose';
import type { AdminKey, ApiKey, Customer } from '../../models';
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
