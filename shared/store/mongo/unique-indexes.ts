import type { Model } from 'mongoose';
import { DuplicateError } from '../../errors';

/**
 * Every unique index of the store, by name, and the DuplicateError target a violation of it raises:
 * the same targets as the SQLite adapter's. Schemas declare each of them with uniqueIndex(name).
 */
const DUPLICATE_TARGETS = {
  unique_applicationId: 'applicationId',
  unique_version: 'version',
  unique_fileId: 'fileId',
  unique_mainFileOfTarget: 'mainFile',
  unique_fileName: 'fileName',
  unique_customerId: 'customerId',
  unique_keyId: 'keyId',
  unique_keyHash: 'keyHash',
  unique_uploadId: 'uploadId',
  unique_tokenHash: 'tokenHash',
  unique_eventId: 'eventId',
  unique_dailyCount: 'dailyCount',
  unique_webhookId: 'webhookId',
  unique_deliveryId: 'deliveryId',
  unique_adminKeyId: 'keyId',
  unique_adminKeyHash: 'keyHash',
  unique_entryId: 'entryId',
  unique_accessTokenId: 'tokenId',
  unique_accessTokenHash: 'tokenHash',
  unique_tokenUsage: 'tokenUsage',
  unique_licenceAcceptance: 'licenceAcceptance',
  unique_checkEventId: 'eventId',
  unique_adoptionCount: 'adoptionCount',
  unique_customerVersion: 'customerVersion',
  unique_tufRepository: 'tufRepository',
  unique_tufRoot: 'tufRoot',
  unique_repositoryKeys: 'repositoryKeys',
  unique_attestationKey: 'attestationKey',
  unique_attestationId: 'attestationId',
  unique_installOffer: 'installOffer',
  unique_rolloutPlan: 'rolloutPlan',
  unique_reportId: 'reportId',
} as const;

export type UniqueIndexName = keyof typeof DUPLICATE_TARGETS;

/**
 * Unique indexes an earlier release declared, by collection, and the target their violation raises.
 * A starting process drops no index, so each stays until `npm run migrate` drops it once no process
 * of that release is left; meanwhile it still refuses what it refused then.
 */
const RETIRED_UNIQUE_INDEXES: Readonly<Record<string, readonly { key: Record<string, unknown>; target: string }[]>> = {
  // unique_mainFile, one live MAIN file per version: until it is dropped, a version cannot have MAIN
  // files for several platforms or architectures.
  files: [{ key: { applicationId: 1, version: 1 }, target: 'mainFile' }],
};

/** Options of a unique index; its name is its entry in the targets above. */
export function uniqueIndex(name: UniqueIndexName): { unique: true; name: UniqueIndexName } {
  return { unique: true, name };
}

/** A server's duplicate-key refusal: code 11000, with the key pattern of the violated index (as MongoDB 6 and 7 report it). */
interface DuplicateKeyError {
  code: 11000;
  keyPattern?: Record<string, unknown>;
}

export function isDuplicateKeyError(error: unknown): error is DuplicateKeyError {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}

/**
 * Runs a write on `model`, translating a unique-index violation into DuplicateError. The violated
 * index is the unique index of the model's schema whose key is the reported keyPattern (no two unique
 * indexes of one collection share a key), else a retired one with that key; its name gives the
 * target. An index not declared here reports the target 'record'.
 */
export async function guardDuplicates<T>(model: Model<any>, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    throw new DuplicateError(duplicateTarget(model, error.keyPattern));
  }
}

function duplicateTarget(model: Model<any>, keyPattern: Record<string, unknown> | undefined): string {
  if (!keyPattern) return 'record';
  const violated = model.schema.indexes().find(([key, options]) => options.unique && sameKey(key, keyPattern));
  const name = violated?.[1].name;
  if (name !== undefined && name in DUPLICATE_TARGETS) return DUPLICATE_TARGETS[name as UniqueIndexName];
  const retired = RETIRED_UNIQUE_INDEXES[model.collection.collectionName]?.find((index) => sameKey(index.key, keyPattern));
  return retired?.target ?? 'record';
}

/** The same fields in the same order, each in the same direction. */
function sameKey(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const fields = Object.keys(a);
  const other = Object.keys(b);
  return fields.length === other.length && fields.every((field, i) => field === other[i] && a[field] === b[field]);
}
