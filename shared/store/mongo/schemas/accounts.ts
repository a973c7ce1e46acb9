import { Schema } from 'mongoose';
import type { ApiKey, Customer } from '../../models';
import { uniqueIndex } from '../unique-indexes';
import { collectionOptions } from './schema-options';

export type CustomerDoc = Customer;
export type ApiKeyDoc = ApiKey;

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
