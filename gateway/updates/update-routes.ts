import { notFound } from '../../shared/errors';
import { DOWNLOAD_URL_LIFETIME_SECONDS } from '../../shared/policy';
import { archOfTauriArch, platformOfTauriTarget } from '../../shared/releases/update-client-names';
import { isBlockmapName } from '../../shared/releases/blockmaps';
import { LATEST_VERSION } from '../../shared/releases/version-order';
import { presentRedirect, redirectResponse } from '../../shared/contract/downloads';
import { callerBaseUrl } from '../http/caller-base-url';
import { clientOrigin } from '../http/client-origin';
import type { AppContext, CustomerPrincipal } from '../http/context';
import { andThen, Eventually, isPending } from '../http/eventually';
import { documentResponse, route} from '../http/route';
import type { RouteModule } from '../gateway-deps';
import type { UpdateFeeds } from './update-feeds';
import type { DownloadService } from '../downloads/download-service';
import {
  electronChannelFileParams,
  electronChannelFileQuery,
  electronFileParams,
  squirrelMacParams,
  squirrelMacQuery,
  tauriCheckParams,
  tauriCheckQuery,
} from './update-schemas';
import { squirrelUpdateAnswer } from './feed-documents';
import { relayedRange, sendRelayedRange } from './feed-ranges';
import { defaultChannel } from '../../shared/releases/channels';
import { UpdateCheckRecorder } from './update-check-recorder';
import { ElectronChannelAnswer, SquirrelMacCheck, SquirrelMacUpdate, UpdateCheck } from './update-feeds';

const UPDATES_PATH = '/v1/updates';
const APPLICATION_UPDATES = `${UPDATES_PATH}/:applicationId`;

const YAML_CONTENT_TYPE = 'text/yaml; charset=utf-8';
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** What the feeds answer outside the envelope, for the API description. */
const CHANNEL_FILE = documentResponse('text/yaml', "electron-updater's channel file (UpdateInfo): version, files [{url, sha512, size}], path, sha512, releaseDate, releaseNotes");
const TAURI_UPDATE = documentResponse('application/json', "Tauri's update: {version, url, signature, notes, pub_date}; 204 has no body");
const SQUIRREL_UPDATE = documentResponse('application/json', "Squirrel.Mac's update: {url, name, notes, pub_date}; 204 has no body");

/**
 * Update feeds for installed apps (electron-updater, Tauri, Squirrel.Mac), with the customer's key
 * and the download rules. electron-updater and Tauri send the feed's headers with their downloads, so
 * their file links come back here (one download event, 302 to a pre-signed URL); Squirrel.Mac sends
 * none, so its answer carries the pre-signed URL and the event is recorded when it is answered.
 */
export const updateRoutes: RouteModule<{ updateFeeds: UpdateFeeds; downloads: DownloadService; updateChecks: UpdateCheckRecorder }> = (deps, { updateFeeds: feeds, downloads, updateChecks }) => {
  const { channels } = deps.config;
  // What a check that names no channel is answered from (the release catalogue's rule).
  const stableChannel = defaultChannel(channels);

  /** Squirrel.Mac downloads without the feed's headers: its answer carries a pre-signed URL, and the download is recorded now (not for a HEAD). */
  const sendSquirrelUpdate = async ({ release, file }: SquirrelMacUpdate, customer: CustomerPrincipal, ctx: AppContext): Promise<void> => {
    // Its answer is the download: the licence gate is asked here (the check answered with the version is not).
    const admitted = downloads.check(customer, { applicationId: file.applicationId, version: file.version, fileId: file.fileId });
    if (isPending(admitted)) await admitted;
    const answered = downloads.answer(file, DOWNLOAD_URL_LIFETIME_SECONDS, presentRedirect);
    const answer = isPending(answered) ? await answered : answered;
    if (ctx.method === 'GET') await downloads.record(file, clientOrigin(ctx, customer.customerId));
    sendCheck({ kind: 'update', version: release.version.version, body: Buffer.from(JSON.stringify(squirrelUpdateAnswer(release.version, answer.data.downloadUrl))) }, ctx);
  };
  /** A differential update's blockmap: its pre-signed URL, and no download event (it is not the file). */
  const sendBlockmap = async (target: { applicationId: string; version: string; fileName: string }, customer: CustomerPrincipal, ctx: AppContext) => {
    const granted = downloads.checkBlockmap(customer, target);
    const { file } = isPending(granted) ? await granted : granted;
    const answered = downloads.answer(file, DOWNLOAD_URL_LIFETIME_SECONDS, presentRedirect);
    const answer = isPending(answered) ? await answered : answered;
    ctx.set('Location', answer.data.downloadUrl);
    return answer;
  };
  const answerSquirrel = (check: SquirrelMacCheck, customer: CustomerPrincipal, ctx: AppContext): Eventually<void> =>
    (check.kind === 'up-to-date' ? sendCheck(check, ctx) : sendSquirrelUpdate(check, customer, ctx));

  return [
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/electron/:channelFile`, operationId: 'getElectronChannelFile', guard: 'customer', noStore: true,
      summary: "electron-updater's channel file (latest.yml, latest-mac.yml, beta-linux-arm64.yml, ...) for the generic provider",
      params: electronChannelFileParams(channels), query: electronChannelFileQuery, hot: true,
      status: 200, response: CHANNEL_FILE,
      handle: ({ params }, ctx, customer) =>
        andThen(feeds.electronChannelFile(customer, params.applicationId, params.channelFile), (answer: ElectronChannelAnswer, context: AppContext) => {
          // A channel file is answered only for a name it parsed (else 404), so `file` is there.
          const asked = params.channelFile.file!;
          updateChecks.recordUpdateCheck(context, customer, {
            applicationId: params.applicationId, client: 'electron-updater', platform: asked.platform, arch: asked.arch ?? 'any', channel: asked.channel,
            // electron-updater sends no version with its channel-file request (see the README's "Adoption analytics").
            runningVersion: undefined, offeredVersion: answer.version, installId: UpdateCheckRecorder.electronInstallId(context),
          });
          sendYaml(answer.body, context);
        }, ctx),
    }),
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/electron/:version/:fileName`, operationId: 'getElectronUpdateFile', guard: 'customer', noStore: true,
      summary: 'A file the update feeds link to: one download event (GET without Range), 302 to a pre-signed URL; '
        + 'one byte range of a differential update answered 206 here, several redirected; '
        + 'its `{fileName}.blockmap` (of the version offered or of any version customers have had) is no download',
      params: electronFileParams,
      status: [302, 206], failures: [410], response: redirectResponse,
      handle: async ({ params }, ctx, customer) => {
        // A file link names the exact version its channel file listed; `latest` would name no file.
        if (params.version === LATEST_VERSION) throw notFound('version not found');
        const target = { applicationId: params.applicationId, version: params.version, fileName: params.fileName };
        if (isBlockmapName(params.fileName)) return sendBlockmap(target, customer, ctx);
        const granted = downloads.check(customer, target);
        const { file } = isPending(granted) ? await granted : granted;
        // A differential update's block run: its bytes, here (FEED_RANGE_RELAY_MAX_BYTES says why).
        const relayed = ctx.method === 'GET' ? relayedRange(ctx.get('Range') || undefined, file.fileSize) : undefined;
        if (relayed) return sendRelayedRange(deps.storage, file, relayed, ctx);
        const answered = downloads.answer(file, DOWNLOAD_URL_LIFETIME_SECONDS, presentRedirect);
        const answer = isPending(answered) ? await answered : answered;
        // A HEAD downloads nothing, and a Range request is a piece of a download (a differential update).
        if (ctx.method === 'GET' && !ctx.get('Range')) await downloads.record(file, clientOrigin(ctx, customer.customerId));
        ctx.set('Location', answer.data.downloadUrl);
        return answer;
      },
    }),
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/tauri/:target/:arch/:currentVersion`, operationId: 'checkTauriUpdate', guard: 'customer', noStore: true,
      summary: "Tauri updater's dynamic-server check: 204 when up to date, else the newest signed release",
      params: tauriCheckParams, query: tauriCheckQuery(channels), hot: true,
      status: [200, 204], response: TAURI_UPDATE,
      handle: ({ params, query }, ctx, customer) => {
        const platform = platformOfTauriTarget(params.target);
        const arch = archOfTauriArch(params.arch);
        if (!platform || !arch) throw notFound(`no build for Tauri target ${params.target} and arch ${params.arch}`);
        const checked = feeds.tauriCheck(customer, params.applicationId, { platform, arch, channel: query.channel }, params.currentVersion,
          callerBaseUrl(deps.config.publicBaseUrl, ctx.state));
        return andThen(checked, (check: UpdateCheck, context: AppContext) => {
          updateChecks.recordUpdateCheck(context, customer, {
            applicationId: params.applicationId, client: 'tauri', platform, arch, channel: query.channel ?? stableChannel,
            runningVersion: params.currentVersion.version, offeredVersion: check.kind === 'update' ? check.version : null, installId: null,
          });
          sendCheck(check, context);
        }, ctx);
      },
    }),
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/squirrel-mac/:currentVersion`, operationId: 'checkSquirrelMacUpdate', guard: 'customer', noStore: true,
      summary: "Squirrel.Mac's check (Electron's autoUpdater on macOS): 204 when up to date, else the zip's pre-signed URL",
      params: squirrelMacParams, query: squirrelMacQuery(channels), hot: true,
      status: [200, 204], response: SQUIRREL_UPDATE,
      handle: ({ params, query }, ctx, customer) => {
        // What the app puts in `arch` from process.arch; Intel when left out.
        const target = { arch: query.arch ?? 'x64', channel: query.channel };
        const checked = feeds.squirrelMacCheck(customer, params.applicationId, target, params.currentVersion);
        const record = (check: SquirrelMacCheck): SquirrelMacCheck => {
          updateChecks.recordUpdateCheck(ctx, customer, {
            applicationId: params.applicationId, client: 'squirrel-mac', platform: 'macos', arch: target.arch, channel: query.channel ?? stableChannel,
            runningVersion: params.currentVersion.version, offeredVersion: check.kind === 'update' ? check.release.version.version : null, installId: null,
          });
          return check;
        };
        return isPending(checked) ? checked.then((check) => answerSquirrel(record(check), customer, ctx)) : answerSquirrel(record(checked), customer, ctx);
      },
    }),
  ];
};

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
