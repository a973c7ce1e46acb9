import { randomBytes } from 'node:crypto';
import { hashSecret } from './secrets';

/** Customer ids never hold '.', the separator of `<customerId>.<secret>`. */
export const CUSTOMER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface IssuedKey {
  apiKey: string;
  keyHash: string;
  prefix: string;
}

/** A new customer key with a 256-bit secret; only its hash and a short prefix are ever stored. */
export function issueCustomerKey(customerId: string): IssuedKey {
  const apiKey = `${customerId}.${randomBytes(32).toString('base64url')}`;
  return { apiKey, keyHash: hashSecret(apiKey), prefix: apiKey.slice(0, customerId.length + 7) };
}

/** The customer id of a presented key; null when it cannot be a customer key. */
export function customerIdOfKey(presented: string): string | null {
  const dot = presented.indexOf('.');
  if (dot <= 0) return null;
  const customerId = presented.slice(0, dot);
  const secret = presented.slice(dot + 1);
  return CUSTOMER_ID_PATTERN.test(customerId) && SECRET_PATTERN.test(secret) ? customerId : null;
}
