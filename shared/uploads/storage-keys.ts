import { randomToken } from '../ids';

/**
 * Where bytes live in object storage. A file's upload has a key of its own while it is pending: large
 * uploads land on a staging key first and are moved to it before they are hashed (a multipart upload
 * is assembled there), so a second PUT to a still-valid upload URL can never change a published file.
 * Files stored before content addressing keep it as their object's key.
 */
export const fileStorageKey = (applicationId: string, fileId: string): string => `files/${applicationId}/${fileId}`;

const CONTENT_KEY = /^files\/[^/]+\/sha256\/[0-9a-f]{64}$/;

/**
 * A verified file's object, addressed by its bytes' SHA-256 (hex) within its application: files of the
 * same bytes share it, and it is written once (ObjectStorage.moveUnlessPresent).
 */
export const contentStorageKey = (applicationId: string, sha256: string): string => `files/${applicationId}/sha256/${sha256}`;

/** Whether `key` is a content-addressed object, which other files may share. */
export const isContentStorageKey = (key: string): boolean => CONTENT_KEY.test(key);
export const STAGING_DIRECTORY = 'staging';
export const stagingStorageKey = (uploadId: string): string => `${STAGING_DIRECTORY}/${uploadId}`;

/** Small uploads (the form) stage their file under a name of their own, which carries when it was made. */
const FORM_STAGING = /^form-([0-9a-z]+)-[A-Za-z0-9_-]+$/;

/** A staging key for a small upload's file, made at `at` (ms): no session names it, so its name dates it. */
export const formStagingKey = (at: number): string => stagingStorageKey(`form-${at.toString(36)}-${randomToken(12)}`);

/** When the small upload staged at `name` (a staging key's last segment) started; null for another name. */
export function formStagingTime(name: string): number | null {
  const match = FORM_STAGING.exec(name);
  return match ? parseInt(match[1], 36) : null;
}

/**
 * An application's logo, addressed by its SHA-256: a replaced logo's bytes are under another key, so
 * nothing reads them once the record points at the new one, and they are deleted after.
 */
export const logoStorageKey = (applicationId: string, sha256: string): string => `logos/${applicationId}/${sha256}`;
