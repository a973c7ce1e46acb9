import type { Migration } from './migration';

/** Files' objects are shared by files of the same bytes: whether another file points at one is read by its key. */
const FILE_OBJECTS = `
CREATE INDEX files_storage_key ON files (storage_key);
`;

export const migration: Migration = (db) => db.exec(FILE_OBJECTS);
