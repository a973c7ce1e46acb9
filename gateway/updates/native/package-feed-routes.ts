import { notFound } from '../../../shared/errors';
import { defaultChannel } from '../../../shared/releases/channels';
import { redirectResponse } from '../../../shared/contract/downloads';
import { documentResponse, route} from '../../http/route';
import type { RouteModule } from '../../gateway-deps';
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
import type { PackageTarget } from './package-feeds';
import type { PackageFeedAnswers } from './package-feed-answers';

const APPLICATION_UPDATES = '/v1/updates/:applicationId';

const RELEASES = documentResponse('text/plain', 'RELEASES: one "SHA1 URL size" line per package (the newest full package, after the deltas from the client\'s version when every one exists), absolute URLs');
const VELOPACK_FEED = documentResponse('application/json', "Velopack's VelopackAssetFeed: {Assets: [{PackageId, Version, Type, FileName, SHA1, SHA256, Size, NotesMarkdown, NotesHtml}]}; no build is an empty list");

/** The feed paths, from which package links are built (the package routes sit beside them). */
const squirrelFeedPath = (applicationId: string, channel: string) => `/v1/updates/${applicationId}/squirrel-windows/${encodeURIComponent(channel)}`;
const velopackFeedPath = (applicationId: string) => `/v1/updates/${applicationId}/velopack`;

/**
 * Squirrel.Windows and Velopack feeds with the customer's key (a header, or the token path form
 * `/t/{token}/v1/updates/...`, which both clients need: neither sends a header of the app's) and the
 * download rules. Their package links are the service's, beside the feed (what either client reaches
 * by resolving a bare name against the feed URL too): one download event, 302 to a pre-signed URL.
 */
export const packageFeedRoutes: RouteModule<{ packageFeedAnswers: PackageFeedAnswers }> = (deps, { packageFeedAnswers: answers }) => {
  const { channels } = deps.config;

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
        return answers.releases(ctx, customer, 'squirrel-windows', params.applicationId, squirrelTarget(channel, query), query, squirrelFeedPath(params.applicationId, channel));
      },
    }),
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/squirrel-windows/:channel/RELEASES`, operationId: 'getSquirrelWindowsChannelReleases', guard: 'customer', noStore: true,
      summary: "Squirrel.Windows' RELEASES for a channel (and the more stable ones): the newest full package and the delta chain from localVersion",
      params: squirrelWindowsChannelParams(channels), query: squirrelWindowsQuery, hot: true,
      status: 200, response: RELEASES,
      handle: ({ params, query }, ctx, customer) => {
        const channel = squirrelChannel(params.channel);
        return answers.releases(ctx, customer, 'squirrel-windows', params.applicationId, squirrelTarget(channel, query), query, squirrelFeedPath(params.applicationId, channel));
      },
    }),
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/squirrel-windows/:channel/:fileName`, operationId: 'getSquirrelWindowsPackage', guard: 'customer', noStore: true,
      summary: 'A package RELEASES lists: one download event (GET without Range), 302 to a pre-signed URL; '
        + 'byte ranges answered 206 here with an access token (counted against its maxBytes), or one of at most 64 MiB without',
      params: squirrelWindowsPackageParams(channels),
      status: [302, 206], failures: [410], response: redirectResponse,
      handle: ({ params }, ctx, customer) => {
        squirrelChannel(params.channel);
        return answers.package(ctx, customer, params.applicationId, params.fileName);
      },
    }),
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/velopack/releases.:channel([^/]+).json`, operationId: 'getVelopackReleaseFeed', guard: 'customer', noStore: true,
      summary: "Velopack's release feed for a channel (win, osx, linux, a channel, or <channel>-<os>): the newest full package and the delta chain from localVersion",
      params: velopackChannelParams(channels), query: velopackFeedQuery, hot: true,
      status: 200, response: VELOPACK_FEED,
      handle: ({ params, query }, ctx, customer) => {
        const { channel, platform } = velopackChannel(params.channel);
        const target: PackageTarget = { channel, platform: platform ?? undefined, packageId: query.id };
        return answers.velopackFeed(ctx, customer, params.applicationId, target, query.localVersion);
      },
    }),
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/velopack/RELEASES`, operationId: 'getVelopackReleases', guard: 'customer', noStore: true,
      summary: "The legacy RELEASES of Velopack's win channel (what Squirrel.Windows apps moving to Velopack read)",
      params: velopackParams, query: squirrelWindowsQuery, hot: true,
      status: 200, response: RELEASES,
      handle: ({ params, query }, ctx, customer) =>
        answers.releases(ctx, customer, 'velopack', params.applicationId, squirrelTarget(defaultChannel(channels), query), query, velopackFeedPath(params.applicationId)),
    }),
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/velopack/RELEASES-:channel`, operationId: 'getVelopackChannelReleases', guard: 'customer', noStore: true,
      summary: "The legacy RELEASES-{channel} of a Velopack channel (osx, linux, a channel, or <channel>-<os>)",
      params: velopackChannelParams(channels), query: squirrelWindowsQuery, hot: true,
      status: 200, response: RELEASES,
      handle: ({ params, query }, ctx, customer) => {
        const { channel, platform } = velopackChannel(params.channel);
        const target: PackageTarget = { channel, platform: platform ?? undefined, arch: query.arch, packageId: query.id };
        return answers.releases(ctx, customer, 'velopack', params.applicationId, target, query, velopackFeedPath(params.applicationId));
      },
    }),
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/velopack/:fileName`, operationId: 'getVelopackPackage', guard: 'customer', noStore: true,
      summary: "A package Velopack's feed lists, at {feed URL}/{FileName}: one download event (GET without Range), 302 to a pre-signed URL; "
        + 'byte ranges answered 206 here with an access token (counted against its maxBytes), or one of at most 64 MiB without',
      params: velopackPackageParams,
      status: [302, 206], failures: [410], response: redirectResponse,
      handle: ({ params }, ctx, customer) => answers.package(ctx, customer, params.applicationId, params.fileName),
    }),
  ];
};
