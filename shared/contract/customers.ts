import { z } from 'zod';
import type { ApiKey, Customer } from '../store/models';
import type { CustomerDeletion } from '../store/store';
import { iso, isoOrNull, messageField, pagination, paginationResponse, timestamp } from './common';

export const customerResponse = z.object({
  customerId: z.string(),
  name: z.string(),
  tier: z.string(),
  isActive: z.boolean(),
  notes: z.string().nullable(),
  /** The customer's maintenance window: releases published at or after updatesUntil, or outside versionRange, are not offered. */
  updatesUntil: timestamp.nullable(),
  versionRange: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export function presentCustomer(customer: Customer): z.input<typeof customerResponse> {
  return {
    customerId: customer.customerId,
    name: customer.name,
    tier: customer.tier,
    isActive: customer.isActive,
    notes: customer.notes,
    updatesUntil: isoOrNull(customer.updatesUntil),
    versionRange: customer.versionRange,
    createdAt: iso(customer.createdAt),
    updatedAt: iso(customer.updatedAt),
  };
}

/** A new customer with its first key: the only time that key is shown. */
export const provisionedCustomerResponse = customerResponse.extend({ apiKey: z.string(), keyId: z.string() });

export function presentProvisionedCustomer(customer: Customer, key: IssuedApiKey): z.input<typeof provisionedCustomerResponse> {
  return { ...presentCustomer(customer), apiKey: key.apiKey, keyId: key.record.keyId };
}

export const customerListResponse = z.object({ customers: z.array(customerResponse), pagination: paginationResponse });

export function presentCustomerList(items: Customer[], page: number, pageSize: number, total: number): z.input<typeof customerListResponse> {
  return { customers: items.map(presentCustomer), pagination: pagination(page, pageSize, total) };
}

/** A key as listed: never its hash, only the prefix a person recognises. */
export const apiKeyResponse = z.object({
  keyId: z.string(),
  customerId: z.string(),
  prefix: z.string(),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
  /** null while the key works (always, in the listing of a customer's active keys). */
  revokedAt: timestamp.nullable(),
});

export function presentApiKey(key: ApiKey): z.input<typeof apiKeyResponse> {
  return {
    keyId: key.keyId,
    customerId: key.customerId,
    prefix: key.prefix,
    createdAt: iso(key.createdAt),
    lastUsedAt: isoOrNull(key.lastUsedAt),
    revokedAt: isoOrNull(key.revokedAt),
  };
}

export const apiKeyListResponse = z.object({ apiKeys: z.array(apiKeyResponse) });

export function presentApiKeyList(keys: ApiKey[]): z.input<typeof apiKeyListResponse> {
  return { apiKeys: keys.map(presentApiKey) };
}

/** A key just issued: its record, and the full key, which is never stored. */
export interface IssuedApiKey {
  record: ApiKey;
  apiKey: string;
}

/** A key as issued: the full key appears only in this answer. */
export const issuedApiKeyResponse = z.object({ customerId: z.string(), keyId: z.string(), apiKey: z.string(), createdAt: timestamp });

export function presentIssuedApiKey({ record, apiKey }: IssuedApiKey): z.input<typeof issuedApiKeyResponse> {
  return { customerId: record.customerId, keyId: record.keyId, apiKey, createdAt: iso(record.createdAt) };
}

export const revokedApiKeyResponse = z.object({ customerId: z.string(), keyId: z.string(), revokedAt: timestamp.nullable() });

export function presentRevokedApiKey(key: ApiKey): z.input<typeof revokedApiKeyResponse> {
  return { customerId: key.customerId, keyId: key.keyId, revokedAt: isoOrNull(key.revokedAt) };
}

export const deletedCustomerResponse = z.object({
  message: messageField,
  customerId: z.string(),
  /** Keys and share links revoked with the customer. */
  revokedKeys: z.number().int(),
  revokedShareLinks: z.number().int(),
  /** Download events whose customer, address and user agent were erased; they still count in statistics. */
  anonymisedEvents: z.number().int(),
});

export function presentDeletedCustomer(deletion: CustomerDeletion): z.input<typeof deletedCustomerResponse> {
  return {
    message: `customer ${deletion.customer.customerId} deleted`,
    customerId: deletion.customer.customerId,
    revokedKeys: deletion.revokedKeys,
    revokedShareLinks: deletion.revokedShareLinks,
    anonymisedEvents: deletion.anonymisedEvents,
  };
}
