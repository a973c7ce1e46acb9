import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { SQLITE_STORE_FILE } from '../store/create-store';
import { DATA_DIR_SECRET_FILES } from './local-secrets';

/** Where the embedded object store keeps its files in DATA_DIR (and in a backup, which has DATA_DIR's layout). */
const OBJECTS_DIR = 'objects';
/** Multipart uploads in progress: parts of uploads that are not files yet, which a backup leaves out. */
const MULTIPART_DIR = '.multipart';

export interface BackupSummary {
  storeBytes: number;
  objects: number;
  objectBytes: number;
}

/**
 * Backs up the embedded default's DATA_DIR into `target` (which must not exist or be empty) while
 * the service runs, in DATA_DIR's own layout, so restoring is copying it back:
 *  1. the SQLite store through SQLite's online backup (better-sqlite3's `backup()`): one consistent
 *     snapshot, taken beside the service's writes, which it does not block;
 *  2. then the objects: every file the snapshot names was written before its record (a file is
 *     stored, then published), so each is there to copy. Files stored since are copied too and are
 *     simply not named by any record;
 *  3. the secret files (the admin key's hash, the URL-signing key, the key sealing webhook secrets).
 * The embedded Redis (queues) is left out: its jobs are the work of the moment, which the restored
 * service's sweeps and start-up jobs settle or redo.
 */
export async function backupDataDir(dataDir: string, target: string): Promise<BackupSummary> {
  const storeFile = path.join(dataDir, SQLITE_STORE_FILE);
  if (!fs.existsSync(storeFile)) throw new Error(`no embedded store at ${storeFile}: is DATA_DIR right? (MongoDB and S3 are backed up with their own tools)`);
  prepareEmptyDir(target);
  // Not read-only: a read-only connection cannot open a WAL database whose -shm file is gone (service stopped).
  const source = new Database(storeFile, { fileMustExist: true });
  try {
    // After a first step, the rest in one: a source written to between steps would restart the copy.
    await source.backup(path.join(target, SQLITE_STORE_FILE), { progress: ({ remainingPages }) => Math.max(remainingPages, 1) });
  } finally {
    source.close();
  }
  const copied = copyTree(path.join(dataDir, OBJECTS_DIR), path.join(target, OBJECTS_DIR), (name) => name !== MULTIPART_DIR);
  for (const name of DATA_DIR_SECRET_FILES) copyIfPresent(path.join(dataDir, name), path.join(target, name));
  return { storeBytes: fs.statSync(path.join(target, SQLITE_STORE_FILE)).size, ...copied };
}

/**
 * Restores a backup into `dataDir`, which must not exist or be empty (stop the service first, and
 * start it on the restored directory): the store is checked whole before anything is copied.
 */
export function restoreDataDir(backup: string, dataDir: string): BackupSummary {
  const storeFile = path.join(backup, SQLITE_STORE_FILE);
  if (!fs.existsSync(storeFile)) throw new Error(`${backup} is not a backup of DATA_DIR: it has no ${SQLITE_STORE_FILE}`);
  const check = new Database(storeFile, { readonly: true, fileMustExist: true });
  try {
    const result = check.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new Error(`the backed-up store is damaged: ${String(result)}`);
  } finally {
    check.close();
  }
  prepareEmptyDir(dataDir);
  fs.copyFileSync(storeFile, path.join(dataDir, SQLITE_STORE_FILE));
  const copied = copyTree(path.join(backup, OBJECTS_DIR), path.join(dataDir, OBJECTS_DIR), () => true);
  for (const name of DATA_DIR_SECRET_FILES) copyIfPresent(path.join(backup, name), path.join(dataDir, name));
  return { storeBytes: fs.statSync(storeFile).size, ...copied };
}

function prepareEmptyDir(dir: string): void {
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) throw new Error(`${dir} is not empty: give a new or empty directory`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Copies the files under `from`; a file removed meanwhile (a staged upload moved, say) is skipped. */
function copyTree(from: string, to: string, keep: (name: string) => boolean): { objects: number; objectBytes: number } {
  const totals = { objects: 0, objectBytes: 0 };
  if (!fs.existsSync(from)) return totals;
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (!keep(entry.name)) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      const inner = copyTree(source, target, keep);
      totals.objects += inner.objects;
      totals.objectBytes += inner.objectBytes;
    } else if (entry.isFile() && copyIfPresent(source, target)) {
      totals.objects += 1;
      totals.objectBytes += fs.statSync(target).size;
    }
  }
  return totals;
}

function copyIfPresent(from: string, to: string): boolean {
  try {
    fs.copyFileSync(from, to);
    fs.chmodSync(to, fs.statSync(from).mode & 0o777);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
