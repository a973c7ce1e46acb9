import { requireVersionRange } from '../../shared/contract/fields';
import { issueCustomerKey } from '../../shared/api-keys';
import type { IssuedApiKey } from '../../shared/contract/customers';
import { conflict, DuplicateError, notFound } from '../../shared/errors';
import { newId } from '../../shared/ids';
import { PAGE_SIZE_MAX } from '../../shared/policy';
import type { ApiKey, Customer } from '../../shared/store/models';
import type { CacheTag } from '../../shared/cache/invalidation-bus';
import type { CustomerDeletion, Page, Store } from '../../shared/store/store';
import { webhookData } from '../../shared/webhooks/events';
import type { WebhookEvents } from '../../shared/webhooks/webhook-events';
import type { ApiKeyCache } from '../auth/api-key-cache';
import type { CreateCustomerInput, UpdateCustomerRequest } from '../../shared/contract/customers-requests';

/** A new customer and its first key. */
export interface ProvisionedCustomer {
  customer: Customer;
  key: IssuedApiKey;
}

/**
 * Customers and their keys. Every change that can alter what a key may do is written through the
 * auth cache, so the very next request on any gateway is authorised against it, or it is refused with
 * 503 and nothing is written.
 */
export class CustomerService {
  constructor(
    private readonly store: Store,
    private readonly keyCache: ApiKeyCache,
    private readonly webhooks: WebhookEvents,
  ) {}

  /** Creates the customer and issues its first key. */
  async provision(input: CreateCustomerInput): Promise<ProvisionedCustomer> {
    requireVersionRange(input.versionRange);
    const now = new Date();
    const customerId = input.customerId ?? newId('cus');
    const customer = await this.webhooks.announceChange(
      [{ type: 'customer.created', subject: [customerId], at: now }],
      () => this.createCustomer({
        customerId,
        name: input.name,
        tier: input.tier,
        isActive: true,
        notes: input.notes ?? null,
        updatesUntil: input.updatesUntil ?? null,
        versionRange: input.versionRange ?? null,
        createdAt: now,
        updatedAt: now,
      }),
      (created) => [webhookData.customer(created)],
    );
    return { customer, key: await this.issueKey(customer.customerId, now) };
  }

  async list(page: number, pageSize: number, search?: string): Promise<Page<Customer>> {
    return this.store.accounts.listCustomers(page, pageSize, search);
  }

  async get(customerId: string): Promise<Customer> {
    const customer = await this.store.accounts.getCustomer(customerId);
    if (!customer) throw customerNotFound(customerId);
    return customer;
  }

  async update(customerId: string, patch: UpdateCustomerRequest): Promise<Customer> {
    requireVersionRange(patch.versionRange);
    const at = new Date();
    const updated = await this.webhooks.announceChange(
      [{ type: 'customer.updated', subject: [customerId], at }],
      () => this.keyCache.changeCustomer(customerId, () => this.store.accounts.updateCustomer(customerId, patch, at)),
      (customer) => [customer && webhookData.customer(customer)],
    );
    if (!updated) throw customerNotFound(customerId);
    return updated;
  }

  /**
   * Deletes a customer (Store.deleteCustomer: keys and share links revoked, activity anonymised,
   * statistics kept). Its keys' and its own cache entries, and the catalogue entries of the
   * applications it could download, are held on every gateway before the store is written, so its
   * keys are refused everywhere once this answers; 503 and nothing written when they cannot be.
   */
  async delete(customerId: string): Promise<CustomerDeletion> {
    const keys = await this.store.accounts.listApiKeys(customerId);
    const applications = (await this.applicationsOf(customerId)).map((id): CacheTag => ['application', id]);
    const at = new Date();
    // The customer as it was is the event's data: known before the change, since the change removes it.
    const current = await this.store.accounts.getCustomer(customerId);
    const asItWas = current && webhookData.customer(current);
    const deleted = await this.webhooks.announceChange(
      asItWas ? [{ type: 'customer.deleted', subject: [customerId], at, data: asItWas }] : [],
      () => this.keyCache.changeCustomerAndKeys(customerId, keys.map((key) => key.keyHash), applications, () => this.store.accounts.deleteCustomer(customerId, at)),
      (removed) => [removed ? asItWas : null],
    );
    if (!deleted) throw customerNotFound(customerId);
    return deleted;
  }

  /** The ids of every application (soft-deleted ones included) that lists the customer. */
  private async applicationsOf(customerId: string): Promise<string[]> {
    const ids: string[] = [];
    for (let page = 1; ; page += 1) {
      const { items } = await this.store.applications.listApplications({ page, pageSize: PAGE_SIZE_MAX, customerId, includeDeleted: true });
      ids.push(...items.map((app) => app.applicationId));
      if (items.length < PAGE_SIZE_MAX) return ids;
    }
  }

  async createApiKey(customerId: string): Promise<IssuedApiKey> {
    await this.get(customerId);
    return this.issueKey(customerId, new Date());
  }

  async listApiKeys(customerId: string): Promise<ApiKey[]> {
    await this.get(customerId);
    return this.store.accounts.listApiKeys(customerId);
  }

  async revokeApiKey(customerId: string, keyId: string): Promise<ApiKey> {
    // The key's hash names its cache entries, which must be marked before the store changes.
    const active = (await this.store.accounts.listApiKeys(customerId)).find((key) => key.keyId === keyId);
    const at = new Date();
    const revoked = active && await this.webhooks.announceChange(
      [{ type: 'apikey.revoked', subject: [active.keyHash], at }],
      () => this.keyCache.changeKey(active.keyHash, () => this.store.accounts.revokeApiKey(customerId, keyId, at)),
      (key) => [key && webhookData.apiKey(key)],
    );
    if (!revoked) throw notFound(`no active API key ${keyId} for customer ${customerId}`);
    return revoked;
  }

  private async createCustomer(customer: Customer): Promise<Customer> {
    try {
      return await this.store.accounts.createCustomer(customer);
    } catch (error) {
      if (error instanceof DuplicateError && error.target === 'customerId') {
        throw conflict(`customer ${customer.customerId} already exists`);
      }
      throw error;
    }
  }

  private async issueKey(customerId: string, at: Date): Promise<IssuedApiKey> {
    const issued = issueCustomerKey(customerId);
    const record = await this.webhooks.announceChange(
      [{ type: 'apikey.created', subject: [issued.keyHash], at }],
      () => this.store.accounts.createApiKey({
        keyId: newId('key'),
        customerId,
        keyHash: issued.keyHash,
        prefix: issued.prefix,
        createdAt: at,
        lastUsedAt: null,
        revokedAt: null,
      }),
      (created) => [webhookData.apiKey(created)],
    );
    return { record, apiKey: issued.apiKey };
  }
}

const customerNotFound = (customerId: string) => notFound(`customer ${customerId} not found`);
