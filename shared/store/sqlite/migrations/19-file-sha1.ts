import type { Migration } from './migration';

/**
 * Files gain their SHA-1 (Squirrel.Windows' RELEASES and Velopack's feed list it). Files stored
 * before have none until the digest backfill reaches them, which now visits a file missing either
 * digest.
 */
const FILE_SHA1 = `
ALTER TABLE files ADD COLUMN sha1 TEXT;
DROP INDEX files_missing_sha512;
CREATE INDEX files_missing_digests ON files(file_id) WHERE status = 'available' AND (sha512 IS NULL OR sha1 IS NULL);
`;

export const migration: Migration = (db) => db.exec(FILE_SHA1);
