import fs from 'node:fs';
import { FormData } from 'undici';
import type { AnswerOf, Client } from '../../shared/contract/client';
import { ReleaseFields } from './release-fields';

/** The release fields the small upload's form does not take: the content type travels with the file part; the caller compares the checksum. */
const NOT_FORM_FIELDS: ReadonlySet<keyof ReleaseFields> = new Set<keyof ReleaseFields>(['contentType', 'checksum']);

/**
 * One form POST, published at once. The fields go before the file so the service checks them
 * before it stores a byte. The small upload takes no checksum field: the caller compares.
 */
export async function smallUpload(client: Client, filePath: string, target: { applicationId: string; version: string; fileName: string }, fields: ReleaseFields): Promise<AnswerOf<'uploadSmallFile'>> {
  const form = new FormData();
  form.set('applicationId', target.applicationId);
  form.set('version', target.version);
  for (const [name, value] of Object.entries(fields) as [keyof ReleaseFields, string | undefined][]) {
    if (value !== undefined && !NOT_FORM_FIELDS.has(name)) form.set(name, value);
  }
  const bytes = await fs.promises.readFile(filePath);
  form.set('file', new Blob([bytes], { type: fields.contentType ?? 'application/octet-stream' }), target.fileName);
  return client.uploadSmallFile(form);
}
