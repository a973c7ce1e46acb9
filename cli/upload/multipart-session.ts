import fs from 'node:fs';
import { ApiError } from '../errors';
import type { Client } from '../../shared/contract/client';
import type { UploadRecord } from './upload-status';
import { ReleaseFields } from './release-fields';
import { fileIdentity, ResumeRecords, sameRequest, UploadTarget } from './resume-records';


/** An upload taking parts: how it is cut, and the sizes of the parts the store already holds. */
export interface PartTaker {
  uploadId: string;
  fileSize: number;
  partSize: number;
  partCount: number;
  held: Map<number, number>;
  resumed: boolean;
}

/** An upload an earlier run already completed: there is only its verification left to wait for. */
export interface SettledEarlier {
  upload: UploadRecord;
  partCount: number;
}

/**
 * The upload this run continues or opens. The resume record of the same target is used when the
 * service still has its upload and the file and release fields are those it was opened with; a
 * changed request's upload is aborted so its name is free again. A new upload's record is written
 * before the first byte moves.
 */
export async function multipartSession(options: {
  client: Client;
  filePath: string;
  target: UploadTarget;
  fields: ReleaseFields;
  records: ResumeRecords;
}): Promise<PartTaker | SettledEarlier> {
  const { client, filePath, target, fields, records } = options;
  const identity = fileIdentity(filePath, fs.statSync(filePath));
  const earlier = records.load(target);
  if (earlier) {
    const found = await resumable(client, earlier.uploadId, sameRequest(earlier, identity, fields));
    if (found?.status === 'issued') {
      const held = new Map((found.multipart?.parts ?? []).map((part) => [part.partNumber, part.size]));
      return { uploadId: earlier.uploadId, fileSize: identity.size, partSize: earlier.partSize, partCount: earlier.partCount, held, resumed: true };
    }
    if (found) return { upload: found, partCount: earlier.partCount };
    records.remove(target);
  }
  const data = await client.createMultipartUpload({
    applicationId: target.applicationId, version: target.version, fileName: target.fileName, fileSize: identity.size, ...fields,
  });
  records.save(target, { uploadId: data.uploadId, file: identity, fields, partSize: data.partSize, partCount: data.partCount, expiresAt: data.expiresAt });
  return { uploadId: data.uploadId, fileSize: identity.size, partSize: data.partSize, partCount: data.partCount, held: new Map(), resumed: false };
}

export const isPartTaker = (session: PartTaker | SettledEarlier): session is PartTaker => 'held' in session;

/**
 * The upload an earlier run left, when it can still be used: taking parts or already completing,
 * and asked for by the same request. A changed request's upload still taking parts is aborted.
 */
async function resumable(client: Client, uploadId: string, sameRequestAsBefore: boolean): Promise<UploadRecord | undefined> {
  let upload: UploadRecord;
  try {
    upload = await client.getUpload({ uploadId });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
  if (upload.status === 'issued' && !sameRequestAsBefore) {
    await client.abortUpload({ uploadId }).catch((error: unknown) => {
      if (!(error instanceof ApiError && (error.status === 404 || error.status === 409))) throw error;
    });
    return undefined;
  }
  const stillUsable = upload.status === 'issued' || upload.status === 'verifying' || upload.status === 'completed';
  return stillUsable && sameRequestAsBefore ? upload : undefined;
}
