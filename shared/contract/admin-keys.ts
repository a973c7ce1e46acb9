import { z } from 'zod';
import { SCOPES } from '../scopes';
import type { AdminKey } from '../store/models';
import { iso, isoOrNull, timestamp } from './common';

/** A scoped admin key as listed: never its hash, only the prefix a person recognises. */
export const adminKeyResponse = z.object({
  keyId: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  /** null: every application. */
  applicationIds: z.array(z.string()).nullable(),
  createdAt: timestamp,
  expiresAt: timestamp.nullable(),
  lastUsedAt: timestamp.nullable(),
});

export function presentAdminKey(key: AdminKey): z.input<typeof adminKeyResponse> {
  return {
    keyId: key.keyId,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    applicationIds: key.applicationIds,
    createdAt: iso(key.createdAt),
    expiresAt: isoOrNull(key.expiresAt),
    lastUsedAt: isoOrNull(key.lastUsedAt),
  };
}

/** A key just issued: its record, and the full key, which is never stored. */
export interface IssuedAdminKey {
  record: AdminKey;
  apiKey: string;
}

/** A key as issued: the full key appears only in this answer. */
export const issuedAdminKeyResponse = adminKeyResponse.extend({ apiKey: z.string() });

export function presentIssuedAdminKey({ record, apiKey }: IssuedAdminKey): z.input<typeof issuedAdminKeyResponse> {
  return { ...presentAdminKey(record), apiKey };
}

export const adminKeyListResponse = z.object({ apiKeys: z.array(adminKeyResponse) });

export function presentAdminKeyList(keys: AdminKey[]): z.input<typeof adminKeyListResponse> {
  return { apiKeys: keys.map(presentAdminKey) };
}

export const revokedAdminKeyResponse = z.object({ keyId: z.string(), revokedAt: timestamp });

export function presentRevokedAdminKey(key: AdminKey): z.input<typeof revokedAdminKeyResponse> {
  return { keyId: key.keyId, revokedAt: iso(key.revokedAt as Date) };
}
