import { requirePage } from '../bounds';
import type { AdminKey, ApiKey, Customer } from '../models';
import type { CustomerDeletion, CustomerPatch, Page, AccountStore } from '../store';
import type { MongoModels } from './models';
import { definedFields } from './patches';
import { toAdminKey, toApiKey, toCustomer } from './records';
import type { AdminKeyDoc, ApiKeyDoc, CustomerDoc } from './schemas/accounts';
import { guardDuplicates } from './unique-indexes';

const LISTING_ORDER = { createdAt: 1, customerId: 1 } as const;

export class MongoAccounts implements AccountStore {
  constructor(private readonly models: MongoModels) {}

  async createCustomer(customer: Customer): Promise<Customer> {
    await guardDuplicates(this.models.customers, () => this.models.customers.create(customer));
    return customer;
  }

  async getCustomer(customerId: string): Promise<Customer | null> {
    const doc = await this.models.customers.findOne({ customerId }).lean<CustomerDoc>();
    return doc ? toCustomer(doc) : null;
  }

  async listCustomers(page: number, pageSize: number, search?: string): Promise<Page<Customer>> {
    requirePage(page, pageSize);
    if (search) return this.searchCustomers(page, pageSize, search);
    const [total, docs] = await Promise.all([
      // Hinted: an unfiltered count would scan the collection; the listing index gives the same total.
      this.models.customers.countDocuments().hint(LISTING_ORDER),
      this.models.customers
        .find()
        .sort(LISTING_ORDER)
        .skip((page - 1) * pageSize)
        .limit(pageSize)
        .lean<CustomerDoc[]>(),
    ]);
    return { items: docs.map(toCustomer), total };
  }

  /** An anchored pattern on the id and name, each indexed: the match reads index keys rather than documents. */
  private async searchCustomers(page: number, pageSize: number, search: string): Promise<Page<Customer>> {
    const prefix = { $regex: `^${search.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, $options: 'i' };
    const filter = { $or: [{ customerId: prefix }, { name: prefix }] };
    const [total, docs] = await Promise.all([
      this.models.customers.countDocuments(filter),
      this.models.customers.find(filter).sort(LISTING_ORDER).skip((page - 1) * pageSize).limit(pageSize).lean<CustomerDoc[]>(),
    ]);
    return { items: docs.map(toCustomer), total };
  }

  async updateCustomer(customerId: string, patch: CustomerPatch, at: Date): Promise<Customer | null> {
    const doc = await this.models.customers
      .findOneAndUpdate({ customerId }, { $set: { ...definedFields(patch), updatedAt: at } }, { new: true })
      .lean<CustomerDoc>();
    return doc ? toCustomer(doc) : null;
  }

  async deleteCustomer(customerId: string, at: Date): Promise<CustomerDeletion | null> {
    const doc = await this.models.customers.findOne({ customerId }).lean<CustomerDoc>();
    if (!doc) return null;
    // The record goes last: a deletion cut short leaves the customer to delete again, which finishes it.
    const [keys, links] = await Promise.all([
      this.models.apiKeys.updateMany({ customerId, revokedAt: null }, { $set: { revokedAt: at } }),
      this.models.shareLinks.updateMany({ customerId, revokedAt: null }, { $set: { revokedAt: at } }),
      this.models.accessTokens.updateMany({ customerId, revokedAt: null }, { $set: { revokedAt: at } }),
      this.models.applications.updateMany({ customerIds: customerId }, { $pull: { customerIds: customerId }, $set: { updatedAt: at } }),
      this.models.licenceAcceptances.deleteMany({ customerId }),
    ]);
    // Events stay (statistics count them); what names the person goes.
    const events = await this.models.events.updateMany({ customerId }, { $set: { customerId: null, clientIp: null, userAgent: null } });
    await this.models.customers.deleteOne({ customerId });
    return { customer: toCustomer(doc), revokedKeys: keys.modifiedCount, revokedShareLinks: links.modifiedCount, anonymisedEvents: events.modifiedCount };
  }

  async findMissingCustomers(customerIds: string[]): Promise<string[]> {
    const wanted = [...new Set(customerIds)];
    const found = await this.models.customers
      .find({ customerId: { $in: wanted } }, { _id: 0, customerId: 1 })
      .lean<Pick<CustomerDoc, 'customerId'>[]>();
    const existing = new Set(found.map((c) => c.customerId));
    return wanted.filter((id) => !existing.has(id));
  }

  async createApiKey(key: ApiKey): Promise<ApiKey> {
    await guardDuplicates(this.models.apiKeys, () => this.models.apiKeys.create(key));
    return key;
  }

  async listApiKeys(customerId: string): Promise<ApiKey[]> {
    const docs = await this.models.apiKeys
      .find({ customerId, revokedAt: null })
      .sort({ createdAt: 1, keyId: 1 })
      .lean<ApiKeyDoc[]>();
    return docs.map(toApiKey);
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKey | null> {
    const doc = await this.models.apiKeys.findOne({ keyHash }).lean<ApiKeyDoc>();
    return doc ? toApiKey(doc) : null;
  }

  async revokeApiKey(customerId: string, keyId: string, at: Date): Promise<ApiKey | null> {
    const doc = await this.models.apiKeys
      .findOneAndUpdate({ keyId, customerId, revokedAt: null }, { $set: { revokedAt: at } }, { new: true })
      .lean<ApiKeyDoc>();
    return doc ? toApiKey(doc) : null;
  }

  async touchApiKey(keyId: string, at: Date): Promise<void> {
    await this.models.apiKeys.updateOne({ keyId }, { $set: { lastUsedAt: at } });
  }

  async createAdminKey(key: AdminKey): Promise<AdminKey> {
    await guardDuplicates(this.models.adminKeys, () => this.models.adminKeys.create(key));
    return key;
  }

  async listAdminKeys(): Promise<AdminKey[]> {
    const docs = await this.models.adminKeys
      .find({ revokedAt: null })
      .sort({ createdAt: 1, keyId: 1 })
      .lean<AdminKeyDoc[]>();
    return docs.map(toAdminKey);
  }

  async findAdminKeyByHash(keyHash: string): Promise<AdminKey | null> {
    const doc = await this.models.adminKeys.findOne({ keyHash }).lean<AdminKeyDoc>();
    return doc ? toAdminKey(doc) : null;
  }

  async revokeAdminKey(keyId: string, at: Date): Promise<AdminKey | null> {
    const doc = await this.models.adminKeys
      .findOneAndUpdate({ keyId, revokedAt: null }, { $set: { revokedAt: at } }, { new: true })
      .lean<AdminKeyDoc>();
    return doc ? toAdminKey(doc) : null;
  }

  async touchAdminKey(keyId: string, at: Date): Promise<void> {
    await this.models.adminKeys.updateOne({ keyId }, { $max: { lastUsedAt: at } });
  }
}
