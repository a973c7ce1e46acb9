import fs from 'node:fs';
import path from 'node:path';
import { SMALL_UPLOAD_MAX_BYTES } from '../../shared/policy';
import { isBlockmapName } from '../../shared/releases/blockmaps';
import { isZipArchive } from '../../shared/releases/file-names';
import { archFromAlias, type Arch } from '../../shared/releases/platforms';
import { guessFileTarget } from '../../shared/releases/artifact-names';
import { ApiError } from '../errors';
import type { Client } from '../../shared/contract/client';
import { apiClient } from '../http/api-client';
import { Output } from '../output/output';
import { multipartUpload } from '../upload/multipart-upload';
import type { ReleaseFields } from '../upload/release-fields';
import { ResumeRecords } from '../upload/resume-records';
import { smallUpload } from '../upload/small-upload';
import { unpublishedUpload, waitForUpload, isSettled } from '../upload/upload-status';
import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';

/**
 * electron-builder's custom publish provider (app-builder-lib's PublishManager loads
 * `{buildResources}/electron-publisher-{provider}.js` and calls `upload` once per artifact; its
 * configuration schema takes only `custom` as a provider of one's own):
 * `publish: {provider: "custom", url, applicationId, channel}` with `build/electron-publisher-custom.js`
 * requiring this module, the key from `BDS_API_KEY` (or the
 * variable `keyEnv` names). Every artifact goes to the version as a draft, with its platform, arch
 * and type as `bds publish` would give it; the channel files (`latest*.yml`) are the service's own
 * and are not sent. The version stays a draft, published afterwards in one change (`bds publish
 * <app> dist --status published` finds every file stored and publishes it), unless the configuration
 * says `status: published`: PublishManager hands a provider the channel files only once every
 * artifact's upload has ended (its `awaitTasks` writes them after awaiting those uploads), so the
 * first channel file is the signal that the build's artifacts are all stored; the version is then
 * published in one change, once every artifact sent and every file the channel file names is
 * stored and verified. Only for a build whose one electron-builder run makes every platform: a CI
 * that builds each platform in its own job keeps the draft and publishes after the last job.
 */
export interface BdsPublishConfiguration {
  provider: string;
  url: string;
  applicationId: string;
  channel?: string;
  keyEnv?: string;
  /** `published`: publish the version when electron-builder hands over its channel files (see above). */
  status?: 'draft' | 'published';
}

/** app-builder-lib's UploadTask: the file, and builder-util's Arch enum (ia32, x64, armv7l, arm64, universal). */
interface UploadTask {
  file: string;
  fileContent?: Buffer | null;
  arch: number | null;
}

const BUILDER_ARCHS = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

/** The MAIN file of a target is the installer people download; other formats go beside it. */
const MAIN_INSTALLER = /\.(exe|dmg|appimage)$/i;

export default class BdsPublisher {
  readonly providerName = 'bds';
  private readonly client: Client;
  private readonly baseUrl: string;
  private readonly version: string;
  /** The artifacts this run sent (or found stored), by version. */
  private readonly sent = new Map<string, Set<string>>();
  /** The one change that publishes each version, asked for by the first channel file. */
  private readonly publishing = new Map<string, Promise<void>>();

  constructor(context: { packager?: { appInfo?: { version?: string } } } | null, private readonly config: BdsPublishConfiguration, version?: string) {
    const keyEnv = config.keyEnv ?? 'BDS_API_KEY';
    const key = process.env[keyEnv];
    if (!config.url || !config.applicationId) throw new Error('the bds publish provider needs url and applicationId');
    if (!key) throw new Error(`the bds publish provider: set ${keyEnv} to a publish-scoped admin key`);
    this.baseUrl = config.url.replace(/\/+$/, '');
    this.client = apiClient(this.baseUrl, key);
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
    if (/\.ya?ml$/i.test(fileName)) {
      if (this.config.status === 'published') await this.publishAfter(task);
      return;
    }
    const guessed = guessFileTarget(fileName);
    const arch: Arch = (task.arch !== null && archFromAlias(BUILDER_ARCHS[task.arch] ?? '')) || guessed.arch;
    const fileType = isBlockmapName(fileName) ? 'BLOCKMAP' : isZipArchive(fileName) && guessed.platform === 'macos' ? 'UPDATE' : MAIN_INSTALLER.test(fileName) ? 'MAIN' : 'OTHER';
    const version = this.versionOf(fileName);
    const fields: ReleaseFields = { fileType, platform: guessed.platform, arch, channel: this.config.channel, status: 'draft' };
    const target = { applicationId: this.config.applicationId, version, fileName };
    try {
      await this.send(task, target, fields);
    } catch (error) {
      // Published again (a rerun): the same bytes under the name are fine.
      if (!(error instanceof ApiError && error.status === 409) || !(await this.alreadyStored(version, fileName, task.file))) throw error;
    }
    if (!this.sent.has(version)) this.sent.set(version, new Set());
    this.sent.get(version)?.add(fileName);
  }

  private async send(task: UploadTask, target: { applicationId: string; version: string; fileName: string }, fields: ReleaseFields): Promise<void> {
    if (fs.statSync(task.file).size <= SMALL_UPLOAD_MAX_BYTES) {
      await smallUpload(this.client, task.file, target, fields);
      return;
    }
    const records = new ResumeRecords();
    const resumeTarget = { baseUrl: this.baseUrl, ...target };
    const outcome = await multipartUpload({ client: this.client, output: new Output(false), filePath: task.file, target: resumeTarget, fields, parallel: 4, records, signal: new AbortController().signal });
    const upload = isSettled(outcome.upload.status) ? outcome.upload : await waitForUpload(this.client, outcome.upload.uploadId);
    records.remove(resumeTarget);
    const failure = unpublishedUpload(upload);
    if (failure) throw failure;
  }

  /**
   * A channel file (latest.yml, latest-mac.yml...): every artifact's upload has ended. The version
   * it names is published in one change when every artifact sent and every file it names is
   * stored and verified; refused otherwise, the version kept a draft.
   */
  private async publishAfter(task: UploadTask): Promise<void> {
    const text = task.fileContent ? task.fileContent.toString('utf8') : fs.readFileSync(task.file, 'utf8');
    const channelFile = parseYaml(text) as { version?: unknown; files?: { url?: unknown }[] } | null;
    if (!channelFile || channelFile.version === undefined || !Array.isArray(channelFile.files)) return;
    const version = String(channelFile.version);
    const data = await this.client.listVersions({ applicationId: this.config.applicationId });
    const held = data.versions.find((candidate) => candidate.version === version);
    const stored = new Set((held?.files ?? []).filter((file) => file.status === 'available').map((file) => file.fileName.replace(/\s+/g, '-')));
    const expected = [...(this.sent.get(version) ?? []), ...channelFile.files.map((file) => String(file.url ?? ''))].map((name) => name.replace(/\s+/g, '-'));
    const missing = [...new Set(expected)].filter((name) => name && !stored.has(name));
    if (!held || missing.length > 0) {
      throw new Error(`the bds publish provider: version ${version} stays a draft, ${path.basename(task.file)} names files that are not stored and verified: ${missing.join(', ') || 'the version does not exist'}`);
    }
    if (held.status !== 'draft') return;
    let publishing = this.publishing.get(version);
    if (!publishing) {
      publishing = this.client.updateVersion({ applicationId: this.config.applicationId, version }, { status: 'published' }).then(() => undefined);
      this.publishing.set(version, publishing);
    }
    await publishing;
  }

  private async alreadyStored(version: string, fileName: string, file: string): Promise<boolean> {
    const data = await this.client.listVersions({ applicationId: this.config.applicationId });
    const stored = data.versions.find((candidate) => candidate.version === version)?.files.find((candidate) => candidate.fileName === fileName && candidate.status === 'available');
    return stored?.checksum === `sha256:${createHash('sha256').update(fs.readFileSync(file)).digest('hex')}`;
  }
}

module.exports = BdsPublisher;
module.exports.default = BdsPublisher;
