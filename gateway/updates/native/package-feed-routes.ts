import { notFound } from '../../../shared/errors';
import { DOWNLOAD_URL_LIFETIME_SECONDS } from '../../../shared/policy';
import { defaultChannel } from '../../../shared/releases/channels';
import { presentRedirect, redirectResponse } from '../../../shared/contract/downloads';
import { callerBaseUrl } from '../../http/caller-base-url';
import { clientOrigin } from '../../http/client-origin';
import type { AppContext, CustomerPrincipal } from '../../http/context';
import { andThen, Eventually, isPending } from '../../http/eventually';
import { documentResponse, route} from '../../http/route';
import type { RouteModule } from '../../gateway-deps';
import type { DownloadService } from '../../downloads/download-service';
import type { UpdateCheckRecorder } from '../update-check-recorder';
import {
  squirrelWindowsChannelParams,
  squirrelWindowsPackageParams,
  squirrelWindowsParams,
  squirrelWindowsQuery,
  velopackChannelParams,
  velopackFeedQuery,
  velopackPackageParams,
  velopackParams,
} from './package-feed-schemas';
import type { VelopackChannel } from '../../../shared/releases/update-client-names';
import { packageUrl, releasesEntry, releasesText, updateEntries, velopackFeed } from './package-feed-documents';
import type { PackageFeeds, PackageTarget, PackageUpdate } from './package-feeds';
import type { RunningVersion } from '../update-schemas';

const APPLICATION_UPDATES = '/v1/updates/:applicationId';

const RELEASES_CONTENT_TYPE = 'text/plain; charset=utf-8';
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const RELEASES = documentResponse('text/plain', 'RELEASES: one "SHA1 URL size" line per package (the newest full package, after the deltas from the client\'s version when every one exists), absolute URLs');
const VELOPACK_FEED = documentResponse('application/json', "Velopack's VelopackAssetFeed: {Assets: [{PackageId, Version, Type, FileName, SHA1, SHA256, Size, NotesMarkdown, NotesHtml}]}; no build is an empty list");

/** Which update client answered check a feed route made: what an update-check event names. */
export type PackageFeedClient = 'squirrel-windows' | 'velopack';

/** What an answered check of these feeds records: who asked for what, running which version. */
interface AnsweredCheck {
  client: PackageFeedClient;
  applicationId: string;
  target: PackageTarget;
  localVersion: RunningVersion | undefined;
}

/** The feed paths, from which package links are built (the package routes sit beside them). */
const squirrelFeedPath = (applicationId: string, channel: string) => `/v1/updates/${applicationId}/squirrel-windows/${encodeURIComponent(channel)}`;
const velopackFeedPath = (applicationId: string) => `/v1/updates/${applicationId}/velopack`;

/**
 * Squirrel.Windows and Velopack feeds with the customer's key (a header, or the token path form
 * `/t/{token}/v1/updates/...`, which both clients need: neither sends a header of the app's) and the
 * download rules. Their package links are the service's, beside the feed (what either client reaches
 * by resolving a bare name against the feed URL too): one download event, 302 to a pre-signed URL.
 */
export const packageFeedRoutes: RouteModule<{ packageFeeds: PackageFeeds; downloads: DownloadService; updateChecks: UpdateCheckRecorder }> = (deps, { packageFeeds: feeds, downloads, updateChecks }) => {
  const { channels, publicBaseUrl } = deps.config;

  /**
   * Every answered check of these feeds ends here (an update, no update, or the client's own version):
   * `offered` is the update listed, null when only the client's own version was. Refusals (401, 403,
   * 404) throw before it. The check is recorded for adoption (its running version is `localVersion`).
   */
  const answerCheck = (
    ctx: AppContext, customer: CustomerPrincipal, check: AnsweredCheck, contentType: string, body: Buffer, offered: PackageUpdate | null,
  ): void => {
    updateChecks.recordUpdateCheck(ctx, customer, {
      applicationId: check.applicationId,
      client: check.client,
      platform: check.target.platform ?? offered?.full.file.platform ?? 'any',
      arch: check.target.arch ?? offered?.full.file.arch ?? 'any',
      channel: check.target.channel ?? defaultChannel(channels),
      runningVersion: check.localVersion?.version,
      offeredVersion: offered ? offered.full.file.version : null,
      installId: null,
    });
    ctx.status = 200;
    ctx.set('Content-Type', contentType);
    ctx.body = body;
  };

  /** The links of an answer keep the caller's path token (callerBaseUrl). */
  const feedBase = (ctx: AppContext, feedPath: string): string => `${callerBaseUrl(publicBaseUrl, ctx.state)}${feedPath}`;

  // Documents kept with the update they were made from (the catalogue's objects, dropped on every change): a burst of checks serializes each once.
  const releasesDocuments = new WeakMap<PackageUpdate, Map<string, Buffer>>();
  const velopackDocuments = new WeakMap<PackageUpdate, Buffer>();
  const EMPTY_VELOPACK_FEED = Buffer.from(JSON.stringify(velopackFeed([], feeds.notesHtml)));

  /** RELEASES of an update, under a feed base (the token and channel it names). */
  const releasesDocument = (update: PackageUpdate, base: string): Buffer => {
    let byBase = releasesDocuments.get(update);
    if (!byBase) {
      byBase = new Map();
      releasesDocuments.set(update, byBase);
    }
    let document = byBase.get(base);
    if (!document) {
      document = Buffer.from(releasesText(updateEntries(update).map((item) => item.file), (fileName) => packageUrl(base, fileName)));
      byBase.set(base, document);
    }
    return document;
  };
  const velopackDocument = (update: PackageUpdate | null): Buffer => {
    if (!update) return EMPTY_VELOPACK_FEED;
    let document = velopackDocuments.get(update);
    if (!document) {
      document = Buffer.from(JSON.stringify(velopackFeed(updateEntries(update), feeds.notesHtml)));
      velopackDocuments.set(update, document);
    }
    return document;
  };

  /** RELEASES for Squirrel.Windows and the legacy file of Velopack: the update, or the client's own version, or 404 (an empty RELEASES is a failure to Squirrel). */
  const answerReleases = (
    ctx: AppContext, customer: CustomerPrincipal, client: PackageFeedClient, applicationId: string, target: PackageTarget,
    query: { id?: string; localVersion?: RunningVersion }, feedPath: string,
  ): Eventually<void> => {
    const base = feedBase(ctx, feedPath);
    return andThen(feeds.update(customer, applicationId, target, query.localVersion), (update): Eventually<void> => {
      const check = { client, applicationId, target, localVersion: query.localVersion };
      if (update) return answerCheck(ctx, customer, check, RELEASES_CONTENT_TYPE, releasesDocument(update, base), update);
      if (query.id === undefined || query.localVersion === undefined) throw notFound(noBuild(applicationId, target));
      return andThen(feeds.installedPackage(customer, applicationId, query.id, query.localVersion.version), (installed) => {
        const entry = installed && releasesEntry(installed.file);
        if (!entry) throw notFound(noBuild(applicationId, target));
        return answerCheck(ctx, customer, check, RELEASES_CONTENT_TYPE, Buffer.from(releasesText([entry], (fileName) => packageUrl(base, fileName))), null);
      }, undefined);
    }, undefined);
  };

  const squirrelChannel = (channel: string): string => {
    if (!channels.includes(channel)) throw notFound(`no channel ${channel}`);
    return channel;
  };
  const velopackChannel = (request: { name: string; channel: VelopackChannel | null }): VelopackChannel => {
    if (!request.channel) throw notFound(`no Velopack channel ${request.name}: it is win, osx, linux, one of the channels, or <channel>-<win|osx|linux>`);
    return request.channel;
  };
  const squirrelTarget = (channel: string, query: { id?: string; arch?: PackageTarget['arch'] }): PackageTarget =>
    ({ channel, platform: 'windows', arch: query.arch, packageId: query.id });

  return [
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/squirrel-windows/RELEASES`, operationId: 'getSquirrelWindowsReleases', guard: 'customer', noStore: true,
      summary: "Squirrel.Windows' RELEASES for the most stable channel (Electron's autoUpdater on Windows): the newest full package and the delta chain from localVersion",
      params: squirrelWindowsParams, query: squirrelWindowsQuery, hot: true,
      status: 200, response: RELEASES,
      handle: ({ params, query }, ctx, customer) => {
        const channel = defaultChannel(channels);
        return answerReleases(ctx, customer, 'squirrel-windows', params.applicationId, squirrelTarget(channel, query), query, squirrelFeedPath(params.applicationId, channel));
      },
    }),
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/squirrel-windows/:channel/RELEASES`, operationId: 'getSquirrelWindowsChannelReleases', guard: 'customer', noStore: true,
      summary: "Squirrel.Windows' RELEASES for a channel (and the more stable ones): the newest full package and the delta chain from localVersion",
      params: squirrelWindowsChannelParams, query: squirrelWindowsQuery, hot: true,
      status: 200, response: RELEASES,
      handle: ({ params, query }, ctx, customer) => {
        const channel = squirrelChannel(params.channel);
        return answerReleases(ctx, customer, 'squirrel-windows', params.applicationId, squirrelTarget(channel, query), query, squirrelFeedPath(params.applicationId, channel));
      },
    }),
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/squirrel-windows/:channel/:fileName`, operationId: 'getSquirrelWindowsPackage', guard: 'customer', noStore: true,
      summary: 'A package RELEASES lists: one download event (GET without Range), 302 to a pre-signed URL',
      params: squirrelWindowsPackageParams,
      status: 302, failures: [410], response: redirectResponse,
      handle: ({ params }, ctx, customer) => {
        squirrelChannel(params.channel);
        return sendPackage(feeds, downloads, customer, params.applicationId, params.fileName, ctx);
      },
    }),
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/velopack/releases.:channel.json`, operationId: 'getVelopackReleaseFeed', guard: 'customer', noStore: true,
      summary: "Velopack's release feed for a channel (win, osx, linux, a channel, or <channel>-<os>): the newest full package and the delta chain from localVersion",
      params: velopackChannelParams(channels), query: velopackFeedQuery, hot: true,
      status: 200, response: VELOPACK_FEED,
      handle: ({ params, query }, ctx, customer) => {
        const { channel, platform } = velopackChannel(params.channel);
        const target: PackageTarget = { channel, platform: platform ?? undefined, packageId: query.id };
        return andThen(feeds.update(customer, params.applicationId, target, query.localVersion), (update) =>
          answerCheck(ctx, customer, { client: 'velopack', applicationId: params.applicationId, target, localVersion: query.localVersion }, JSON_CONTENT_TYPE, velopackDocument(update), update), undefined);
      },
    }),
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/velopack/RELEASES`, operationId: 'getVelopackReleases', guard: 'customer', noStore: true,
      summary: "The legacy RELEASES of Velopack's win channel (what Squirrel.Windows apps moving to Velopack read)",
      params: velopackParams, query: squirrelWindowsQuery, hot: true,
      status: 200, response: RELEASES,
      handle: ({ params, query }, ctx, customer) =>
        answerReleases(ctx, customer, 'velopack', params.applicationId, squirrelTarget(defaultChannel(channels), query), query, velopackFeedPath(params.applicationId)),
    }),
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/velopack/RELEASES-:channel`, operationId: 'getVelopackChannelReleases', guard: 'customer', noStore: true,
      summary: "The legacy RELEASES-{channel} of a Velopack channel (osx, linux, a channel, or <channel>-<os>)",
      params: velopackChannelParams(channels), query: squirrelWindowsQuery, hot: true,
      status: 200, response: RELEASES,
      handle: ({ params, query }, ctx, customer) => {
        const { channel, platform } = velopackChannel(params.channel);
        const target: PackageTarget = { channel, platform: platform ?? undefined, arch: query.arch, packageId: query.id };
        return answerReleases(ctx, customer, 'velopack', params.applicationId, target, query, velopackFeedPath(params.applicationId));
      },
    }),
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/velopack/:fileName`, operationId: 'getVelopackPackage', guard: 'customer', noStore: true,
      summary: "A package Velopack's feed lists, at {feed URL}/{FileName}: one download event (GET without Range), 302 to a pre-signed URL",
      params: velopackPackageParams,
      status: 302, failures: [410], response: redirectResponse,
      handle: ({ params }, ctx, customer) => sendPackage(feeds, downloads, customer, params.applicationId, params.fileName, ctx),
    }),
  ];
};


/** A package link: granted as an exact version's file is, one download event for a GET without Range, then 302 to a pre-signed URL. */
async function sendPackage(
  feeds: PackageFeeds, downloads: DownloadService, customer: CustomerPrincipal, applicationId: string, fileName: string, ctx: AppContext,
) {
  const granted = feeds.grantPackage(customer, applicationId, fileName);
  const { file } = isPending(granted) ? await granted : granted;
  const answered = downloads.answer(file, DOWNLOAD_URL_LIFETIME_SECONDS, presentRedirect);
  const answer = isPending(answered) ? await answered : answered;
  // A HEAD downloads nothing, and a Range request is a piece of a download (a resumed one).
  if (ctx.method === 'GET' && !ctx.get('Range')) await downloads.record(file, clientOrigin(ctx, customer.customerId));
  ctx.set('Location', answer.data.downloadUrl);
  return answer;
}

function noBuild(applicationId: string, target: PackageTarget): string {
  const where = [target.platform && `platform ${target.platform}`, target.arch && `arch ${target.arch}`, target.packageId && `package ${target.packageId}`].filter(Boolean).join(', ');
  return `no package of ${applicationId} in channel ${target.channel}${where ? ` for ${where}` : ''}`;
}
