import { notFound } from '../../shared/errors';
import { DOWNLOAD_URL_LIFETIME_SECONDS } from '../../shared/policy';
import { archOfTauriArch, platformOfTauriTarget } from '../../shared/releases/update-client-names';
import { isBlockmapName } from '../../shared/releases/blockmaps';
import { LATEST_VERSION } from '../../shared/releases/version-order';
import { defaultChannel } from '../../shared/releases/channels';
import { presentRedirect } from '../../shared/contract/downloads';
import type { Arch } from '../../shared/releases/platforms';
import { callerBaseUrl } from '../http/caller-base-url';
import { clientOrigin } from '../http/client-origin';
import type { AppContext, CustomerPrincipal } from '../http/context';
import { andThen, Eventually, isPending } from '../http/eventually';
import type { Reply } from '../http/reply';
import type { DownloadService } from '../downloads/download-service';
import { squirrelUpdateAnswer } from './feed-documents';
import { UpdateCheckRecorder } from './update-check-recorder';
import type { ChannelFileRequest, RunningVersion } from './update-schemas';
import type { ElectronChannelAnswer, SquirrelMacCheck, SquirrelMacUpdate, UpdateCheck, UpdateFeeds } from './update-feeds';
import { readMethodOf } from '../http/read-method';

const YAML_CONTENT_TYPE = 'text/yaml; charset=utf-8';
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

type Redirect = Reply<{ downloadUrl: string; expiresAt: string }>;

/**
 * What the update routes answer (electron-updater, Tauri, Squirrel.Mac), one method per route: the
 * feed's answer, the check recorded for adoption, the answer written. Each step answers at once when
 * what it needs is in process and waits only when it must (`Eventually`), so a warm check runs without
 * a promise; the routes call one method each and hand its result to the pipeline.
 */
export class UpdateAnswers {
  /** What a check that names no channel is answered from (the release catalogue's rule). */
  private readonly stableChannel: string;

  constructor(
    private readonly feeds: UpdateFeeds,
    private readonly downloads: DownloadService,
    private readonly checks: UpdateCheckRecorder,
    private readonly config: { channels: readonly string[]; publicBaseUrl: string },
  ) {
    this.stableChannel = defaultChannel(config.channels);
  }

  /** electron-updater's channel file, the check recorded (the running version only from the app's `X-App-Version`). */
  electronChannelFile(ctx: AppContext, customer: CustomerPrincipal, applicationId: string, channelFile: ChannelFileRequest): Eventually<void> {
    return andThen(this.feeds.electronChannelFile(customer, applicationId, channelFile), (answer: ElectronChannelAnswer, context: AppContext) => {
      // A channel file is answered only for a name it parsed (else 404), so `file` is there.
      const asked = channelFile.file!;
      this.checks.recordUpdateCheck(context, customer, {
        applicationId, client: 'electron-updater', platform: asked.platform, arch: asked.arch ?? 'any', channel: asked.channel,
        // electron-updater sends no version with its channel-file request unless the app adds it (see docs/adoption.md).
        runningVersion: UpdateCheckRecorder.electronRunningVersion(context), offeredVersion: answer.version, installId: UpdateCheckRecorder.electronInstallId(context),
      });
      sendYaml(answer.body, context);
    }, ctx);
  }

  /**
   * A file the feeds link to, answered as every file link is (answerFileLink: a GET one download
   * event and 302, byte ranges answered here and counted against an access token, HEAD nothing);
   * its blockmap, of any version customers have had, with no event (it is not the file).
   */
  async electronFile(ctx: AppContext, customer: CustomerPrincipal, target: { applicationId: string; version: string; fileName: string }): Promise<Redirect | Reply<never>> {
    // A file link names the exact version its channel file listed; `latest` would name no file.
    if (target.version === LATEST_VERSION) throw notFound('version not found');
    if (isBlockmapName(target.fileName)) return this.sendBlockmap(target, customer, ctx);
    const granted = this.downloads.check(customer, target);
    const { file } = isPending(granted) ? await granted : granted;
    return this.downloads.answerFileLink(ctx, customer, file);
  }

  /** Tauri's check: 204 when up to date, else the newest signed release. */
  tauriCheck(
    ctx: AppContext, customer: CustomerPrincipal, applicationId: string,
    client: { target: string; arch: string; channel: string | undefined }, currentVersion: RunningVersion,
  ): Eventually<void> {
    const platform = platformOfTauriTarget(client.target);
    const arch = archOfTauriArch(client.arch);
    if (!platform || !arch) throw notFound(`no build for Tauri target ${client.target} and arch ${client.arch}`);
    const checked = this.feeds.tauriCheck(customer, applicationId, { platform, arch, channel: client.channel }, currentVersion,
      callerBaseUrl(this.config.publicBaseUrl, ctx.state));
    return andThen(checked, (check: UpdateCheck, context: AppContext) => {
      this.checks.recordUpdateCheck(context, customer, {
        applicationId, client: 'tauri', platform, arch, channel: client.channel ?? this.stableChannel,
        runningVersion: currentVersion.version, offeredVersion: check.kind === 'update' ? check.version : null, installId: null,
      });
      sendCheck(check, context);
    }, ctx);
  }

  /** Squirrel.Mac's check: 204 when up to date, else the zip's pre-signed URL (its answer is the download). */
  squirrelMacCheck(
    ctx: AppContext, customer: CustomerPrincipal, applicationId: string, target: { arch: Arch; channel: string | undefined }, currentVersion: RunningVersion,
  ): Eventually<void> {
    const checked = this.feeds.squirrelMacCheck(customer, applicationId, target, currentVersion);
    const record = (check: SquirrelMacCheck): SquirrelMacCheck => {
      this.checks.recordUpdateCheck(ctx, customer, {
        applicationId, client: 'squirrel-mac', platform: 'macos', arch: target.arch, channel: target.channel ?? this.stableChannel,
        runningVersion: currentVersion.version, offeredVersion: check.kind === 'update' ? check.release.version.version : null, installId: null,
      });
      return check;
    };
    return isPending(checked) ? checked.then((check) => this.answerSquirrel(record(check), customer, ctx)) : this.answerSquirrel(record(checked), customer, ctx);
  }

  private answerSquirrel(check: SquirrelMacCheck, customer: CustomerPrincipal, ctx: AppContext): Eventually<void> {
    return check.kind === 'up-to-date' ? sendCheck(check, ctx) : this.sendSquirrelUpdate(check, customer, ctx);
  }

  /** Squirrel.Mac downloads without the feed's headers: its answer carries a pre-signed URL, and the download is recorded now (not for a HEAD). */
  private async sendSquirrelUpdate({ release, file }: SquirrelMacUpdate, customer: CustomerPrincipal, ctx: AppContext): Promise<void> {
    // Its answer is the download: the licence gate is asked here (the check answered with the version is not).
    const admitted = this.downloads.check(customer, { applicationId: file.applicationId, version: file.version, fileId: file.fileId });
    if (isPending(admitted)) await admitted;
    const answered = this.downloads.answer(file, DOWNLOAD_URL_LIFETIME_SECONDS, presentRedirect, readMethodOf(ctx));
    const answer = isPending(answered) ? await answered : answered;
    if (ctx.method === 'GET') await this.downloads.record(file, clientOrigin(ctx, customer.customerId));
    sendCheck({ kind: 'update', version: release.version.version, body: Buffer.from(JSON.stringify(squirrelUpdateAnswer(release.version, answer.data.downloadUrl))) }, ctx);
  }

  /** A differential update's blockmap: its pre-signed URL, and no download event (it is not the file). */
  private async sendBlockmap(target: { applicationId: string; version: string; fileName: string }, customer: CustomerPrincipal, ctx: AppContext): Promise<Redirect> {
    const granted = this.downloads.checkBlockmap(customer, target);
    const { file } = isPending(granted) ? await granted : granted;
    const answered = this.downloads.answer(file, DOWNLOAD_URL_LIFETIME_SECONDS, presentRedirect, readMethodOf(ctx));
    const answer = isPending(answered) ? await answered : answered;
    ctx.set('Location', answer.data.downloadUrl);
    return answer;
  }
}

function sendYaml(yaml: Buffer, ctx: AppContext): void {
  ctx.status = 200;
  ctx.set('Content-Type', YAML_CONTENT_TYPE);
  ctx.body = yaml;
}

function sendCheck(check: UpdateCheck, ctx: AppContext): void {
  if (check.kind === 'up-to-date') {
    ctx.status = 204;
    return;
  }
  ctx.status = 200;
  ctx.set('Content-Type', JSON_CONTENT_TYPE);
  ctx.body = check.body;
}
