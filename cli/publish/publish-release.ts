import fs from 'node:fs';
import path from 'node:path';
import { MULTIPART_UPLOAD_MAX_BYTES, SMALL_UPLOAD_MAX_BYTES } from '../../shared/policy';
import { standingOf, type PlannedFile, type PublishPlan, type Standing } from '../../shared/publishing';
import { stateDirectory } from '../config/paths';
import { CommandContext } from '../context';
import { CliError, EXIT } from '../errors';
import type { AnswerOf, BodyOf, Client } from '../../shared/contract/client';
import type { UploadRecord } from '../upload/upload-status';
import { interruptible } from '../interrupt';
import { formatBytes } from '../../shared/byte-sizes';
import { multipartUpload } from '../upload/multipart-upload';
import { ReleaseFields } from '../upload/release-fields';
import { ResumeRecords } from '../upload/resume-records';
import { smallUpload } from '../upload/small-upload';
import { isSettled, unpublishedUpload, waitForUpload } from '../upload/upload-status';

type VersionRecord = AnswerOf<'listVersions'>['versions'][number];
type VersionFile = AnswerOf<'listVersions'>['versions'][number]['files'][number];

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
  application: AnswerOf<'getApplication'>;
  channel?: string;
  status: 'draft' | 'published';
  releaseNotes?: string;
  concurrency: number;
  sha256(relative: string): Promise<string>;
}


async function existingVersion(client: Client, applicationId: string, version: string): Promise<VersionRecord | undefined> {
  const data = await client.listVersions({ applicationId });
  return data.versions.find((candidate) => candidate.version === version);
}

/** The SHA-256 a planned file will have, as `sha256:<hex>`. */
async function checksumOf(request: PublishRequest, file: PlannedFile): Promise<string> {
  if (file.path !== null) return `sha256:${await request.sha256(file.path)}`;
  const { createHash } = await import('node:crypto');
  return `sha256:${createHash('sha256').update(file.content ?? '').digest('hex')}`;
}

const shownPath = (request: PublishRequest, file: PlannedFile) => (file.path ? path.join(request.root, file.path) : `${file.fileName} (written from the tool's metadata)`);

/** What the service holds of the version, and what is left to send; refused when the plan does not fit it. */
async function standingFor(client: Client, request: PublishRequest): Promise<Standing & { version: VersionRecord | undefined }> {
  const version = await existingVersion(client, request.applicationId, request.plan.version);
  const standing = await standingOf({
    plan: request.plan, held: version, channel: request.channel,
    checksumOf: (file) => checksumOf(request, file), shownPath: (file) => shownPath(request, file),
  });
  if (standing.problems.length > 0) throw new PublishRefusal(standing.problems);
  return { ...standing, version };
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
    return uploaded;
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
  const standing = await standingFor(client, request);
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
  const change: BodyOf<'updateVersion'> = { ...plan.versionFields };
  if (wantsPublished) change.status = 'published';
  let status = 'draft';
  if (Object.keys(change).length > 0) {
    const data = await client.updateVersion({ applicationId: request.applicationId, version: plan.version }, change);
    status = data.status;
  }
  output.event('done', { applicationId: request.applicationId, version: plan.version, status, sent: standing.toSend.length, alreadyStored: standing.alreadyThere.length });
  output.line(wantsPublished
    ? `Published ${request.applicationId} ${plan.version}: ${plan.files.length} files, customers see them now, together.`
    : `Saved ${request.applicationId} ${plan.version} as a draft with ${plan.files.length} files: publish with bds versions update ${request.applicationId} ${plan.version} --status published`);
}
