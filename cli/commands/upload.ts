import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { FILE_ARCHS, FILE_PLATFORMS, FILE_TYPE_NAMES, UPLOAD_STATUSES } from './choices';
import { MULTIPART_UPLOAD_MAX_BYTES, SMALL_UPLOAD_MAX_BYTES } from '../../shared/policy';
import { action, CommandContext, integerOption } from '../context';
import { ApiError, UsageError, VerificationError } from '../errors';
import type { AnswerOf, Client } from '../../shared/contract/client';
import type { UploadRecord } from '../upload/upload-status';
import { interruptible } from '../interrupt';
import { formatBytes } from '../../shared/byte-sizes';
import { macUpdateWarning } from '../upload/mac-update-warning';
import { multipartUpload } from '../upload/multipart-upload';
import { releaseDestination } from '../upload/release-destination';
import { ReleaseFields } from '../upload/release-fields';
import { ResumeRecords } from '../upload/resume-records';
import { smallUpload } from '../upload/small-upload';
import { isSettled, unpublishedUpload, verificationGoesOn, waitForUpload } from '../upload/upload-status';
import { releaseNotes } from './release-notes';

export const DEFAULT_PARALLEL_PARTS = 4;
const MAX_PARALLEL_PARTS = 32;

interface UploadOptions {
  name?: string;
  // commander holds these to the contract's choices (FILE_TYPE_NAMES, FILE_PLATFORMS, FILE_ARCHS, UPLOAD_STATUSES)
  fileType?: ReleaseFields['fileType'];
  contentType?: string;
  platform?: ReleaseFields['platform'];
  arch?: ReleaseFields['arch'];
  channel?: string;
  status?: ReleaseFields['status'];
  notes?: string;
  notesFile?: string;
  tier?: string;
  checksum?: string;
  parallel: number;
  wait: boolean;
}

/** `sha256:<hex>` or bare hex, any case, as the API takes it; lower-case hex out. */
function expectedDigest(checksum: string | undefined): string | undefined {
  if (checksum === undefined) return undefined;
  const match = /^(?:sha256:)?([0-9a-fA-F]{64})$/.exec(checksum);
  if (!match) throw new UsageError('--checksum must be sha256:<64 hex digits> or 64 hex digits');
  return match[1].toLowerCase();
}

async function sha256OfFile(filePath: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(filePath)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function statInput(filePath: string): fs.Stats {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(filePath);
  } catch (error) {
    throw new UsageError(`cannot read ${filePath}: ${(error as Error).message}`);
  }
  if (!stat.isFile()) throw new UsageError(`${filePath} is not a file`);
  if (stat.size === 0) throw new UsageError(`${filePath} is empty: the service stores files of at least 1 byte`);
  return stat;
}

/**
 * The file already published under this name in the version with the same bytes: what an upload run
 * again after its answer was lost finds (the service refuses the name with 409).
 */
async function samePublishedFile(client: Client, applicationId: string, version: string, fileName: string, filePath: string): Promise<AnswerOf<'listVersions'>['versions'][number]['files'][number] | undefined> {
  const data = await client.listVersions({ applicationId: applicationId });
  const file = data.versions.find((candidate) => candidate.version === version)?.files.find((candidate) => candidate.fileName === fileName && candidate.status === 'available');
  if (!file) return undefined;
  return file.checksum === `sha256:${await sha256OfFile(filePath)}` ? file : undefined;
}

async function uploadFile(context: CommandContext, applicationId: string, version: string, filePath: string, options: UploadOptions): Promise<void> {
  try {
    await sendFile(context, applicationId, version, filePath, options);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 409)) throw error;
    const fileName = options.name ?? path.basename(filePath);
    const published = await samePublishedFile(context.client(), applicationId, version, fileName, filePath);
    if (!published) throw error;
    context.output.event('done', { status: 'completed', alreadyPublished: true, uploadId: null, file: { ...published, applicationId, version } });
    context.output.line(`Already published: ${fileName} (${formatBytes(published.fileSize)}) as ${applicationId} ${version}, ${published.checksum} (the same bytes; nothing was sent again)`);
  }
}

async function sendFile(context: CommandContext, applicationId: string, version: string, filePath: string, options: UploadOptions): Promise<void> {
  const stat = statInput(filePath);
  const fileName = options.name ?? path.basename(filePath);
  const digest = expectedDigest(options.checksum);
  const fields: ReleaseFields = {
    fileType: options.fileType,
    contentType: options.contentType,
    platform: options.platform,
    arch: options.arch,
    channel: options.channel,
    status: options.status,
    releaseNotes: releaseNotes(options),
    requiredTier: options.tier,
    ...(digest ? { checksum: `sha256:${digest}` } : {}),
  };
  const { output } = context;
  const client = context.client();
  const warning = await macUpdateWarning(client, applicationId, version, { fileName, fileType: options.fileType, platform: options.platform, arch: options.arch });
  if (warning) {
    output.event('warning', { message: warning });
    output.note(warning);
  }

  if (stat.size <= SMALL_UPLOAD_MAX_BYTES) {
    // Published as it arrives, so a --checksum is compared before anything is sent.
    if (digest && (await sha256OfFile(filePath)) !== digest) {
      throw new VerificationError(`${filePath} does not match --checksum: nothing was uploaded`, { expected: `sha256:${digest}` });
    }
    output.event('start', { method: 'small', fileSize: stat.size });
    const file = await smallUpload(client, filePath, { applicationId, version, fileName }, fields);
    output.event('done', { status: 'completed', uploadId: null, file });
    output.line(`Uploaded ${file.fileName} (${formatBytes(file.fileSize)}) as ${file.applicationId} ${file.version}, ${file.checksum}: ${releaseDestination(file)}`);
    noteFeedProblems(output, file);
    return;
  }

  if (stat.size > MULTIPART_UPLOAD_MAX_BYTES) throw new UsageError(`${filePath} is larger than the service's largest upload (${formatBytes(MULTIPART_UPLOAD_MAX_BYTES)})`);
  const target = { baseUrl: context.settings().baseUrl, applicationId, version, fileName };
  const records = new ResumeRecords();
  const outcome = await interruptible('upload', (signal) =>
    multipartUpload({ client, output, filePath, target, fields, parallel: options.parallel, records, signal }));
  const counts = { resumed: outcome.resumed, skippedParts: outcome.skippedParts, sentParts: outcome.sentParts };
  let upload: UploadRecord = outcome.upload;
  if (!options.wait) {
    output.event('done', { ...counts, uploadId: upload.uploadId, status: upload.status, file: upload.file });
    output.line(`Upload ${upload.uploadId} is ${upload.status}: bds uploads wait ${upload.uploadId}`);
    return;
  }
  if (!isSettled(upload.status)) {
    output.event('verifying', { uploadId: upload.uploadId });
    output.note(`Verifying ${upload.uploadId}...`);
    const uploadId = upload.uploadId;
    upload = await interruptible(verificationGoesOn(uploadId), (signal) => waitForUpload(client, uploadId, undefined, signal));
  }
  records.remove(target);
  output.event('done', { ...counts, uploadId: upload.uploadId, status: upload.status, failureReason: upload.failureReason, file: upload.file });
  const failure = unpublishedUpload(upload);
  if (failure) throw failure;
  const where = upload.file ? `: ${releaseDestination(upload.file)}` : '';
  output.line(`Uploaded ${upload.fileName} (${formatBytes(upload.fileSize)}) as ${upload.applicationId} ${upload.version}, ${upload.file?.checksum ?? ''}${where}`);
  if (upload.file) noteFeedProblems(output, upload.file);
}

/** Why update feeds leave the version out as it now stands (the upload's answer says it), one note each. */
function noteFeedProblems(output: { note(text: string): void }, file: { version: string; updateFeedProblems: string[] }): void {
  for (const problem of file.updateFeedProblems) output.note(`update feeds leave ${file.version} out: ${problem}`);
}

export function uploadCommand(): Command {
  return new Command('upload')
    .argument('<applicationId>').argument('<version>').argument('<file>')
    .description(`Publish a file: up to ${formatBytes(SMALL_UPLOAD_MAX_BYTES)} in one request, larger ones (up to ${formatBytes(MULTIPART_UPLOAD_MAX_BYTES)}) in parts sent in parallel, resumed when run again after an interruption; waits for verification`)
    .option('--name <fileName>', 'the file name customers see (default: the file\'s own name)')
    .addOption(new Option('--file-type <type>', 'the kind of file (default MAIN, BLOCKMAP for a .blockmap; UPDATE is the macOS .zip beside a .dmg)').choices(FILE_TYPE_NAMES))
    .addOption(new Option('--platform <platform>', 'what it runs on (default any)').choices(FILE_PLATFORMS))
    .addOption(new Option('--arch <arch>', 'universal is a macOS build (default any)').choices(FILE_ARCHS))
    .option('--channel <channel>', 'the channel of a version this upload creates (default: the first of the service\'s CHANNELS)')
    .addOption(new Option('--status <status>', "the status of a version this upload creates (default: the application's defaultVersionStatus): a draft is invisible to customers until published (bds versions update --status published)").choices(UPLOAD_STATUSES))
    .option('--content-type <type>', 'the Content-Type of downloads (default application/octet-stream)')
    .option('--notes <text>', "the version's release notes")
    .option('--notes-file <path>', 'release notes from a file ("-": stdin)')
    .option('--tier <tier>', 'the lowest customer tier that may download the version')
    .option('--checksum <sha256>', 'the SHA-256 the file must have: verification fails otherwise')
    .option('--parallel <n>', `parts sent at a time (default ${DEFAULT_PARALLEL_PARTS})`, integerOption('--parallel', 1, MAX_PARALLEL_PARTS), DEFAULT_PARALLEL_PARTS)
    .option('--no-wait', 'return once the upload is complete, without waiting for its verification')
    .action(action(async (context, applicationId: string, version: string, file: string, options: UploadOptions) => {
      await uploadFile(context, applicationId, version, file, options);
    }));
}
