import fs from 'node:fs';
import path from 'node:path';
import { SMALL_UPLOAD_MAX_BYTES } from '../../shared/policy';
import { isBlockmapName } from '../../shared/releases/blockmaps';
import { isZipArchive } from '../../shared/releases/file-names';
import { archFromAlias, type Arch } from '../../shared/releases/platforms';
import { guessFileTarget } from '../../shared/releases/artifact-names';
import { ApiError } from '../errors';
import { ApiClient, apiPath } from '../http/api-client';
import type { VersionRecord } from '../http/responses';
import { Output } from '../output/output';
import { multipartUpload } from '../upload/multipart-upload';
import { ResumeRecords } from '../upload/resume-records';
import { smallUpload } from '../upload/small-upload';
import { unpublishedUpload, waitForUpload, isSettled } from '../upload/upload-status';
import { createHash } from 'node:crypto';

/**
 * electron-builder's custom publish provider (app-builder-lib's PublishManager loads
 * `{buildResources}/electron-publisher-{provider}.js` and calls `upload` once per artifact; its
 * configuration schema takes only `custom` as a provider of one's own):
 * `publish: {provider: "custom", url, applicationId, channel}` with `build/electron-publisher-custom.js`
 * requiring this module, the key from `BDS_API_KEY` (or the
 * variable `keyEnv` names). Every artifact goes to the version as a draft, with its platform, arch
 * and type as `bds publish` would give it; the channel files (`latest*.yml`) are the service's own
 * and are not sent. electron-builder tells a provider of no "last artifact", so the version is
 * published afterwards in one change: `bds versions update <app> <version> --status published` (or
 * `bds publish <app> dist`, which finds every file stored and publishes).
 */
export interface BdsPublishConfiguration {
  provider: string;
  url: string;
  applicationId: string;
  channel?: string;
  keyEnv?: string;
}

/** app-builder-lib's UploadTask: the file, and builder-util's Arch enum (ia32, x64, armv7l, arm64, universal). */
interface UploadTask {
  file: string;
  arch: number | null;
}

const BUILDER_ARCHS = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

/** The MAIN file of a target is the installer people download; other formats go beside it. */
const MAIN_INSTALLER = /\.(exe|dmg|appimage)$/i;

export default class BdsPublisher {
  readonly providerName = 'bds';
  private readonly client: ApiClient;
  private readonly version: string;

  constructor(context: { packager?: { appInfo?: { version?: string } } } | null, private readonly config: BdsPublishConfiguration, version?: string) {
    const keyEnv = config.keyEnv ?? 'BDS_API_KEY';
    const key = process.env[keyEnv];
    if (!config.url || !config.applicationId) throw new Error('the bds publish provider needs url and applicationId');
    if (!key) throw new Error(`the bds publish provider: set ${keyEnv} to a publish-scoped admin key`);
    this.client = new ApiClient(config.url.replace(/\/+$/, ''), key);
    this.version = version ?? context?.packager?.appInfo?.version ?? '';
  }

  toString(): string {
    return `bds (${this.config.url}, ${this.config.applicationId})`;
  }

  /** The release's version: the one of the app's package.json, which electron-builder puts in every artifact's name. */
  private versionOf(fileName: string): string {
    if (this.version) return this.version;
    const found = /(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)/.exec(fileName);
    if (!found) throw new Error(`the bds publish provider: no version in ${fileName}`);
    return found[1];
  }

  async upload(task: UploadTask): Promise<void> {
    const fileName = path.basename(task.file);
    if (/\.ya?ml$/i.test(fileName)) return;
    const guessed = guessFileTarget(fileName);
    const arch: Arch = (task.arch !== null && archFromAlias(BUILDER_ARCHS[task.arch] ?? '')) || guessed.arch;
    const fileType = isBlockmapName(fileName) ? 'BLOCKMAP' : isZipArchive(fileName) && guessed.platform === 'macos' ? 'UPDATE' : MAIN_INSTALLER.test(fileName) ? 'MAIN' : 'OTHER';
    const version = this.versionOf(fileName);
    const fields = { fileType, platform: guessed.platform, arch, channel: this.config.channel, status: 'draft' };
    const target = { applicationId: this.config.applicationId, version, fileName };
    try {
      if (fs.statSync(task.file).size <= SMALL_UPLOAD_MAX_BYTES) {
        await smallUpload(this.client, task.file, target, fields);
        return;
      }
      const records = new ResumeRecords();
      const resumeTarget = { baseUrl: this.client.baseUrl, ...target };
      const outcome = await multipartUpload({ client: this.client, output: new Output(false), filePath: task.file, target: resumeTarget, fields, parallel: 4, records, signal: new AbortController().signal });
      const upload = isSettled(outcome.upload.status) ? outcome.upload : await waitForUpload(this.client, outcome.upload.uploadId);
      records.remove(resumeTarget);
      const failure = unpublishedUpload(upload);
      if (failure) throw failure;
    } catch (error) {
      // Published again (a rerun): the same bytes under the name are fine.
      if (!(error instanceof ApiError && error.status === 409) || !(await this.alreadyStored(version, fileName, task.file))) throw error;
    }
  }

  private async alreadyStored(version: string, fileName: string, file: string): Promise<boolean> {
    const { data } = await this.client.get<{ versions: VersionRecord[] }>(apiPath`/v1/management/applications/${this.config.applicationId}/versions`);
    const stored = data.versions.find((candidate) => candidate.version === version)?.files.find((candidate) => candidate.fileName === fileName && candidate.status === 'available');
    return stored?.checksum === `sha256:${createHash('sha256').update(fs.readFileSync(file)).digest('hex')}`;
  }
}

module.exports = BdsPublisher;
module.exports.default = BdsPublisher;
