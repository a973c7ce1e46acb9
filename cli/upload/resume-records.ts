import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { stateDirectory } from '../config/paths';
import { ReleaseFields } from './release-fields';

/** Which file an interrupted upload was sending: a changed file never resumes an old upload. */
export interface FileIdentity {
  path: string;
  size: number;
  mtimeMs: number;
  ino: number;
}

/**
 * Where an interrupted multipart upload stands: enough to ask the service which parts it holds, and
 * what it was opened with, so a run asking for other release fields never resumes it.
 */
export interface ResumeRecord {
  uploadId: string;
  file: FileIdentity;
  fields: ReleaseFields;
  partSize: number;
  partCount: number;
  expiresAt: string;
}

/**
 * What an upload targets: one record per service, application, version and file name, as the service
 * holds one file of a name per version. Platform and arch are release fields of the record: another
 * platform for the same name is another request, which replaces the earlier upload.
 */
export interface UploadTarget {
  baseUrl: string;
  applicationId: string;
  version: string;
  fileName: string;
}

export function fileIdentity(filePath: string, stat: fs.Stats): FileIdentity {
  return { path: path.resolve(filePath), size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino };
}

export const sameFile = (a: FileIdentity, b: FileIdentity): boolean =>
  a.path === b.path && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

/** The same upload asked for: the same file, sent with the same release fields (a record from before they were kept has none). */
export const sameRequest = (record: ResumeRecord, file: FileIdentity, fields: ReleaseFields): boolean =>
  sameFile(record.file, file) && record.fields !== undefined && sameFields(record.fields, fields);

const sameFields = (a: ReleaseFields, b: ReleaseFields): boolean => {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof ReleaseFields)[]);
  return [...keys].every((key) => a[key] === b[key]);
};

/**
 * Resume records, one small JSON file each under the state directory, named by a digest of the
 * target. Written when a multipart upload starts, removed once it is completed or given up.
 */
export class ResumeRecords {
  constructor(private readonly directory = path.join(stateDirectory(), 'uploads')) {}

  load(target: UploadTarget): ResumeRecord | undefined {
    try {
      return JSON.parse(fs.readFileSync(this.fileOf(target), 'utf8')) as ResumeRecord;
    } catch {
      // Missing or unreadable: the upload starts afresh, which is always safe.
      return undefined;
    }
  }

  save(target: UploadTarget, record: ResumeRecord): void {
    fs.mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    const file = this.fileOf(target);
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(record), { mode: 0o600 });
    fs.renameSync(temporary, file);
  }

  remove(target: UploadTarget): void {
    fs.rmSync(this.fileOf(target), { force: true });
  }

  private fileOf(target: UploadTarget): string {
    const key = JSON.stringify([target.baseUrl, target.applicationId, target.version, target.fileName]);
    return path.join(this.directory, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`);
  }
}
