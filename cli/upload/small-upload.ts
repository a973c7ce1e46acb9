import fs from 'node:fs';
import { FormData } from 'undici';
import { ApiClient } from '../http/api-client';
import { FileRecord } from '../commands/versions';
import { ReleaseFields } from './release-fields';

/** What the small upload answers: the published file with its version's notes and tier. */
export type UploadedFile = FileRecord & {
  applicationId: string; version: string; releaseNotes: string | null; requiredTier: string | null;
  channel: string; versionStatus: 'draft' | 'published' | 'yanked';
};

/** The form fields the small upload takes besides the file (its content type travels with the file part). */
const SMALL_UPLOAD_FIELDS = ['fileType', 'platform', 'arch', 'channel', 'status', 'releaseNotes', 'requiredTier'] as const;

/**
 * One form POST, published at once. The fields go before the file so the service checks them
 * before it stores a byte. The small upload takes no checksum field: the caller compares.
 */
export async function smallUpload(client: ApiClient, filePath: string, target: { applicationId: string; version: string; fileName: string }, fields: ReleaseFields): Promise<UploadedFile> {
  const form = new FormData();
  form.set('applicationId', target.applicationId);
  form.set('version', target.version);
  for (const name of SMALL_UPLOAD_FIELDS) {
    const value = fields[name];
    if (value !== undefined) form.set(name, value);
  }
  const bytes = await fs.promises.readFile(filePath);
  form.set('file', new Blob([bytes], { type: fields.contentType ?? 'application/octet-stream' }), target.fileName);
  return (await client.postForm<UploadedFile>('/v1/management/upload', form)).data;
}
