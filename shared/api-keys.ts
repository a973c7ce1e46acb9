import { randomBytes } from 'node:crypto';
import { CUSTOMER_ID_PATTERN } from './customer-ids';
import { hashSecret } from './secrets';

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

/** Scoped admin keys: `adm_` and a 256-bit secret. The keys of ADMIN_API_KEYS are configured, not issued. */
export const ADMIN_KEY_PREFIX = 'adm_';
const ADMIN_KEY_PATTERN = /^adm_[A-Za-z0-9_-]{43}$/;
/** `adm_` and the first 8 characters of the secret. */
const ADMIN_KEY_SHOWN_LENGTH = ADMIN_KEY_PREFIX.length + 8;

/** A new scoped admin key; only its hash and a short prefix are ever stored. */
export function issueAdminKey(): IssuedKey {
  const apiKey = `${ADMIN_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { apiKey, keyHash: hashSecret(apiKey), prefix: apiKey.slice(0, ADMIN_KEY_SHOWN_LENGTH) };
}

/** Whether a presented key can be a scoped admin key. */
export function isScopedAdminKey(presented: string): boolean {
  // The prefix first: every customer key on the download path is asked this.
  return presented.startsWith(ADMIN_KEY_PREFIX) && ADMIN_KEY_PATTERN.test(presented);
}

/** Customers' access tokens: `bdt_` and a 256-bit secret; usable in a path, so only URL-safe characters. */
export const ACCESS_TOKEN_PREFIX = 'bdt_';
const ACCESS_TOKEN_PATTERN = /^bdt_[A-Za-z0-9_-]{43}$/;
const ACCESS_TOKEN_SHOWN_LENGTH = ACCESS_TOKEN_PREFIX.length + 8;

/** A new access token; only its hash and a short prefix are ever stored. */
export function issueAccessToken(): IssuedKey {
  const apiKey = `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { apiKey, keyHash: hashSecret(apiKey), prefix: apiKey.slice(0, ACCESS_TOKEN_SHOWN_LENGTH) };
}

/** Whether a presented credential can be an access token. */
export function isAccessToken(presented: string): boolean {
  return presented.startsWith(ACCESS_TOKEN_PREFIX) && ACCESS_TOKEN_PATTERN.test(presented);
}
