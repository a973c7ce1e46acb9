import fs from 'node:fs';
import path from 'node:path';
import { MULTIPART_UPLOAD_MAX_BYTES, SMALL_UPLOAD_MAX_BYTES } from '../../shared/policy';
import type { PlannedFile, PublishPlan } from '../../shared/publishing';
import { stateDirectory } from '../config/paths';
import { CommandContext } from '../context';
import { CliError, EXIT } from '../errors';
import { ApiClient, apiPath } from '../http/api-client';
import type { ApplicationRecord, UploadRecord, VersionFile, VersionRecord } from '../http/responses';
import { interruptible } from '../interrupt';
import { formatBytes } from '../output/format';
import { multipartUpload } from '../upload/multipart-upload';
import { ReleaseFields } from '../upload/release-fields';
import { ResumeRecords } from '../upload/resume-records';
import { smallUpload } from '../upload/small-upload';
import { isSettled, unpublishedUpload, waitForUpload } from '../upload/upload-status';

/** Refused before anything was sent: each problem names the file and the fix. */
export class PublishRefusal extends CliError {
  constructor(readonly problems: { path: string; message: string }[]) {
    super(`nothing was sent; ${problems.length === 1 ? 'one problem' : `${problems.length} problems`}:\n${problems.map((problem) => `  - ${problem.message}`).join('\n')}`,
      EXIT.usage, { code: 'PUBLISH_REFUSED', problems });
  }
}

export interface PublishRequest {
  applicationId: string;
  root: string;
  plan: PublishPlan;
  application: ApplicationRecord;
  channel?: string;
  status: 'draft' | 'published';
  releaseNotes?: string;
  concurrency: number;
  sha256(relative: string): Promise<string>;
}

/** What the service holds of the version, and what is left to send. */
interface Standing {
  version: VersionRecord | undefined;
  toSend: PlannedFile[];
  alreadyThere: PlannedFile[];
}

const versionsPath = (applicationId: string) => apiPath`/v1/management/applications/${applicationId}/versions`;

async function existingVersion(client: ApiClient, applicationId: string, version: string): Promise<VersionRecord | undefined> {
  const { data } = await client.get<{ versions: VersionRecord[] }>(versionsPath(applicationId));
  return data.versions.find((candidate) => candidate.version === version);
}

/** The SHA-256 a planned file will have, as `sha256:<hex>`. */
async function checksumOf(request: PublishRequest, file: PlannedFile): Promise<string> {
  if (file.path !== null) return `sha256:${await request.sha256(file.path)}`;
  const { createHash } = await import('node:crypto');
  return `sha256:${createHash('sha256').update(file.content ?? '').digest('hex')}`;
}

const shownPath = (request: PublishRequest, file: PlannedFile) => (file.path ? path.join(request.root, file.path) : `${file.fileName} (written from the tool's metadata)`);

/**
 * Compares the plan with what the service holds of the version: identical files are not sent
 * again, a different file under a name or in a MAIN slot the version holds is refused, and so is a
 * version customers already see that lacks files (adding them would change a published release).
 */
async function standingOf(client: ApiClient, request: PublishRequest): Promise<Standing> {
  const version = await existingVersion(client, request.applicationId, request.plan.version);
  if (!version) return { version, toSend: request.plan.files, alreadyThere: [] };
  const problems: { path: string; message: string }[] = [];
  if (request.channel && version.channel !== request.channel) {
    problems.push({ path: '.', message: `version ${version.version} exists in channel ${version.channel}, not ${request.channel}: leave --channel out, or publish under another version` });
  }
  const live = version.files.filter((file) => file.status !== 'failed');
  const toSend: PlannedFile[] = [];
  const alreadyThere: PlannedFile[] = [];
  for (const file of request.plan.files) {
    const sameName = live.find((held) => held.fileName === file.fileName);
    const sameSlot = file.fileType === 'MAIN' ? live.find((held) => held.fileType === 'MAIN' && held.platform === file.platform && held.arch === file.arch && held.fileName !== file.fileName) : undefined;
    if (sameSlot) {
      problems.push({ path: file.path ?? file.fileName, message: `${shownPath(request, file)} would be the MAIN file of ${file.platform}/${file.arch}, which ${sameSlot.fileName} already is in version ${version.version}: a version holds one; publish under another version, or delete the draft (bds versions delete)` });
      continue;
    }
    if (!sameName) {
      toSend.push(file);
      continue;
    }
    if (sameName.status === 'available') {
      const checksum = await checksumOf(request, file);
      if (sameName.checksum === checksum) alreadyThere.push(file);
      else problems.push({ path: file.path ?? file.fileName, message: `${shownPath(request, file)} differs from ${sameName.fileName} already in version ${version.version} (${sameName.checksum}, the file has ${checksum}): a published file never changes; publish under another version` });
      continue;
    }
    // Pending: an interrupted run's upload, which the resume record takes up.
    toSend.push(file);
  }
  if (version.status !== 'draft' && toSend.length > 0 && problems.length === 0) {
    problems.push({ path: '.', message: `version ${version.version} is ${version.status} without ${toSend.map((file) => file.fileName).join(', ')}: adding files would change a release customers already have; publish under another version` });
  }
  if (problems.length > 0) throw new PublishRefusal(problems);
  return { version, toSend, alreadyThere };
}

/** A file written from the tool's metadata goes from a file under the state directory. */
function materialise(file: PlannedFile, root: string): string {
  if (file.path !== null) return path.join(root, file.path);
  const directory = path.join(stateDirectory(), 'publish');
  fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
  const written = path.join(directory, file.fileName);
  fs.writeFileSync(written, file.content ?? '');
  return written;
}

async function sendOne(context: CommandContext, request: PublishRequest, file: PlannedFile, signal: AbortSignal): Promise<VersionFile | UploadRecord['file']> {
  const client = context.client();
  const { output } = context;
  const filePath = materialise(file, request.root);
  const fields: ReleaseFields = {
    fileType: file.fileType, platform: file.platform, arch: file.arch, channel: request.channel, status: 'draft',
    ...(request.releaseNotes !== undefined ? { releaseNotes: request.releaseNotes } : {}),
  };
  const target = { applicationId: request.applicationId, version: request.plan.version, fileName: file.fileName };
  output.event('start', { fileName: file.fileName, fileSize: file.size });
  if (file.size <= SMALL_UPLOAD_MAX_BYTES) {
    const uploaded = await smallUpload(client, filePath, target, fields);
    output.event('done', { fileName: file.fileName, checksum: uploaded.checksum });
    output.note(`  sent ${file.fileName} (${formatBytes(file.size)})`);
    return uploaded as unknown as VersionFile;
  }
  if (file.size > MULTIPART_UPLOAD_MAX_BYTES) throw new PublishRefusal([{ path: file.path ?? file.fileName, message: `${filePath} is larger than the service's largest upload (${formatBytes(MULTIPART_UPLOAD_MAX_BYTES)})` }]);
  const records = new ResumeRecords();
  const resumeTarget = { baseUrl: context.settings().baseUrl, ...target };
  const outcome = await multipartUpload({ client, output, filePath, target: resumeTarget, fields, parallel: 4, records, signal });
  let upload = outcome.upload;
  if (!isSettled(upload.status)) upload = await waitForUpload(client, upload.uploadId, undefined, signal);
  records.remove(resumeTarget);
  const failure = unpublishedUpload(upload);
  if (failure) throw failure;
  output.event('done', { fileName: file.fileName, checksum: upload.file?.checksum, resumed: outcome.resumed, skippedParts: outcome.skippedParts });
  output.note(`  sent ${file.fileName} (${formatBytes(file.size)}${outcome.resumed ? `, resumed: ${outcome.skippedParts} parts were already stored` : ''})`);
  return upload.file;
}

/** Sends the files `concurrency` at a time; the first failure stops the others from starting. */
async function sendAll(context: CommandContext, request: PublishRequest, files: PlannedFile[], signal: AbortSignal): Promise<void> {
  const queue = [...files];
  let failed = false;
  const worker = async () => {
    for (let file = queue.shift(); file && !failed; file = queue.shift()) {
      try {
        await sendOne(context, request, file, signal);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const results = await Promise.allSettled(Array.from({ length: Math.max(1, Math.min(request.concurrency, files.length)) }, worker));
  const rejected = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (rejected) throw rejected.reason;
}

/**
 * Ships the plan: every file to a draft version (those an earlier run stored are not sent again,
 * an interrupted multipart upload resumes), the files a signature or blockmap is attached to
 * first, then the version's fields and status in one change. Customers see the version only then.
 */
export async function publishRelease(context: CommandContext, request: PublishRequest): Promise<void> {
  const client = context.client();
  const { output } = context;
  const { plan } = request;
  const standing = await standingOf(client, request);
  const wantsPublished = request.status === 'published';
  if (standing.toSend.length === 0 && standing.version && standing.version.status !== 'draft') {
    output.event('done', { applicationId: request.applicationId, version: plan.version, status: standing.version.status, alreadyPublished: true, sent: 0 });
    output.line(`Already published: ${request.applicationId} ${plan.version} holds these ${plan.files.length} files, identical; nothing was sent.`);
    return;
  }
  if (standing.alreadyThere.length > 0) output.note(`${standing.alreadyThere.length} of ${plan.files.length} files are already stored, identical: not sent again.`);
  output.event('sending', { files: standing.toSend.map((file) => file.fileName), alreadyStored: standing.alreadyThere.map((file) => file.fileName) });
  await interruptible({ hint: `version ${plan.version} stays a draft, invisible to customers; run the same command again to resume` , details: { version: plan.version } }, async (signal) => {
    await sendAll(context, request, standing.toSend.filter((file) => !file.attachedTo), signal);
    await sendAll(context, request, standing.toSend.filter((file) => file.attachedTo), signal);
  });
  const change: Record<string, unknown> = { ...plan.versionFields };
  if (wantsPublished) change.status = 'published';
  let status = 'draft';
  if (Object.keys(change).length > 0) {
    const { data } = await client.patch<VersionRecord>(apiPath`/v1/management/applications/${request.applicationId}/versions/${plan.version}`, change);
    status = data.status;
  }
  output.event('done', { applicationId: request.applicationId, version: plan.version, status, sent: standing.toSend.length, alreadyStored: standing.alreadyThere.length });
  output.line(wantsPublished
    ? `Published ${request.applicationId} ${plan.version}: ${plan.files.length} files, customers see them now, together.`
    : `Saved ${request.applicationId} ${plan.version} as a draft with ${plan.files.length} files: publish with bds versions update ${request.applicationId} ${plan.version} --status published`);
}
