import type { Migration } from './migration';

/**
 * 5: multipart uploads. A session of one names the object store's multipart upload and its part
 * size; sessions stored before are single-PUT uploads (both null).
 */
const MULTIPART_UPLOADS = `
ALTER TABLE upload_sessions ADD COLUMN multipart_upload_id TEXT;
ALTER TABLE upload_sessions ADD COLUMN multipart_part_size INTEGER;
`;

export const migration: Migration = (db) => db.exec(MULTIPART_UPLOADS);
